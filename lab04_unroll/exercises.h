/*
 * exercises.h - lab04's exercise table and the reader of the WB_TODO() flag
 * their kernels set: both compiled in exercises.cu, the one file that
 * compiles the student's exercises.cuh.
 */
#ifndef LAB04_EXERCISES_H
#define LAB04_EXERCISES_H

#include "workbook.h"

/* the rows (wb_reduce_kernel) */
extern const wb_table lab04_exercises;
int lab04_exercises_todo_take(void);

#endif /* LAB04_EXERCISES_H */
