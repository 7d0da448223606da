/*
 * exercises.h - lab06's exercise table and the reader of the WB_TODO() flag
 * their kernels set: both compiled in exercises.cu, the one file that
 * compiles the student's exercises.cuh.
 */
#ifndef LAB06_EXERCISES_H
#define LAB06_EXERCISES_H

#include "workbook.h"

/* the rows (t_kernel, lab06.cuh) */
extern const wb_table lab06_exercises;
int lab06_exercises_todo_take(void);

#endif /* LAB06_EXERCISES_H */
