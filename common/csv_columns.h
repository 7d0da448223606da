/*
 * csv_columns.h - the documented columns of --csv (docs/output.md), in their
 * one place: the programs print them, and the grader reads them from this
 * file (tools/grader/grade.d/conf.awk, csv_columns()).
 */
#ifndef WB_CSV_COLUMNS
#define WB_CSV_COLUMNS                                                                      \
    "lab,device,kernel,n,nx,ny,grid,block,bytes,reps,time_ms,q1_ms,q3_ms,spread_pct,gbps,"  \
    "pct_of_copy,speedup,total_ms,total_gbps,ceiling_gbps,peak_gbps,type,role,against,build," \
    "run_at,fingerprint,finish,error,bound,result,status"
#endif
