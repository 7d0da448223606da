/*
 * exercises.h - lab05's exercise tables, both modes, and the reader of the
 * WB_TODO() flag their kernels set: all compiled in exercises.cu, the one
 * file that compiles the student's exercises.cuh.
 */
#ifndef LAB05_EXERCISES_H
#define LAB05_EXERCISES_H

#include "workbook.h"

/* the 1D rows (wb_reduce_kernel) and the matrix mode's rows (m_kernel) */
extern const wb_table lab05_exercises;
extern const wb_table lab05_matrix_exercises;
int lab05_exercises_todo_take(void);

#endif /* LAB05_EXERCISES_H */
