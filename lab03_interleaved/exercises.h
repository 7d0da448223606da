/*
 * exercises.h - lab03's exercise table and the reader of the WB_TODO() flag
 * their kernels set: both compiled in exercises.cu, the one file that
 * compiles the student's exercises.cuh.
 */
#ifndef LAB03_EXERCISES_H
#define LAB03_EXERCISES_H

#include "workbook.h"

/* the rows (wb_reduce_kernel) */
extern const wb_table lab03_exercises;
int lab03_exercises_todo_take(void);

#endif /* LAB03_EXERCISES_H */
