/*
 * test_args.c - CPU tests of common/args.c: the command line, every bad-input
 * case, the exercises, --type, --finish, --check's lists.
 * Checks print "ok NAME" or "FAIL NAME: why" (tests/unit/test_common.c runs them).
 */
#define _POSIX_C_SOURCE 200809L
#include "test_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_parse_count(void)
{
    struct {
        const char *s;
        int ret;
        long long v;
    } cases[] = {
        {"1", 0, 1},          {"1000003", 0, 1000003},  {"16M", 0, 16777216}, {"16m", 0, 16777216},
        {"4K", 0, 4096},      {"1G", 0, 1073741824},    {"16Mi", 0, 16777216}, {"2^24", 0, 16777216},
        {"2^0", 0, 1},        {"0", -1, 0},             {"-5", -1, 0},        {"abc", -1, 0},
        {"", -1, 0},          {"12x", -1, 0},           {"1.5M", -1, 0},      {" 5", -1, 0},
        {"5 ", -1, 0},        {"3^4", -1, 0},           {"2^", -1, 0},        {"0K", -1, 0},
        {"+7", -1, 0},        {"99999999999999999999999", -2, 0},             {"2^63", -2, 0},
        {"3G", -2, 0},        {"2147483648", -2, 0},    {"2147483647", 0, 2147483647LL},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        long long v = -1;
        int r = wb_parse_count(cases[i].s, WB_INT_MAX, &v);
        char name[128], why[128];
        snprintf(name, sizeof name, "parse_count '%s'", cases[i].s);
        snprintf(why, sizeof why, "returned %d value %lld, expected %d value %lld", r, v, cases[i].ret,
                 cases[i].v);
        check(r == cases[i].ret && (r != 0 || v == cases[i].v), name, why);
    }
}

void test_args(void)
{
    wb_args a;
    char err[1200];
    int i;

    good(&length_lab, "", &a);
    check(a.n == 1 << 24 && a.block_x == 512 && a.reps == 20 && a.seed == 1 && a.format == WB_TABLE_OUT &&
              a.selected[0] && a.selected[1] && a.selected[2] && !a.n_given && !a.block_given,
          "args defaults", "defaults not applied");
    good(&length_lab, "-n 16M -b 32 -r 7 --seed 42 --csv", &a);
    check(a.n == 16777216 && a.block_x == 32 && a.reps == 7 && a.seed == 42 && a.format == WB_CSV &&
              a.n_given && a.block_given,
          "args values", "values not parsed");
    good(&length_lab, "-n 1 -b 1024 --json", &a);
    check(a.n == 1 && a.block_x == 1024 && a.format == WB_JSON, "args extremes", "1 / 1024 / json");
    good(&length_lab, "-k gamma,alpha", &a);
    check(a.selected[0] && !a.selected[1] && a.selected[2], "args -k subset", "wrong selection");
    good(&length_lab, "--sweep --explain", &a);
    check(a.extra && a.explain, "args extra flag and --explain", "flags not set");
    good(&length_lab, "--list", &a);
    check(a.list, "args --list", "not set");
    good(&length_lab, "-h", &a);
    check(a.help, "args -h", "not set");
    good(&length_lab, "--seed 18446744073709551615", &a);
    check(a.seed == 18446744073709551615ULL, "args largest seed", "wrong seed");

    bad(&length_lab, "-n 0", "-n");
    bad(&length_lab, "-n -5", "-n");
    bad(&length_lab, "-n abc", "-n");
    bad(&length_lab, "-n 3G", "'3G' is more than 2147483647");
    bad(&length_lab, "-n 99999999999999999999", "'9999999999...' is more than");
    bad(&length_lab, "-n 2048x2048", "-n");
    bad(&length_lab, "-n", "needs a value");
    bad(&length_lab, "-b 48", "power of two");
    bad(&length_lab, "-b 16", "power of two");
    bad(&length_lab, "-b 2048", "power of two");
    bad(&length_lab, "-b 0", "-b");
    bad(&length_lab, "-b x", "-b");
    bad(&length_lab, "-k nope", "nope");
    bad(&length_lab, "-k alpha,", "empty");
    bad(&length_lab, "-k ,alpha", "empty");
    bad(&length_lab, "-k Alpha", "Alpha");
    bad(&length_lab, "-r 0", "-r");
    bad(&length_lab, "-r 1000001", "-r");
    bad(&length_lab, "-r many", "-r");
    bad(&length_lab, "--seed -1", "--seed");
    bad(&length_lab, "--seed 99999999999999999999", "--seed");
    bad(&length_lab, "--csv --json", "exclude");
    bad(&length_lab, "--bogus", "unknown option");
    bad(&length_lab, "--trace", "unknown option");
    bad(&length_lab, "stray", "unexpected argument");
    /* what the user typed is quoted short: the line stays within 100 columns */
    bad(&length_lab, "-n 1234567890x1234567890123", "-n: '1234567890...' is not a length");
    bad(&length_lab, "-k reduceNeighboredLessAndLessAndLess", "'reduceNeighboredLessAndLe...' (./labX --list");
    bad(&length_lab, "-k alpha,,gamma,alpha,gamma,alpha,gamma", "-k: an empty name in 'alpha,,gamma,alpha,gamma,...'");
    bad(&length_lab, "--bogus-option-with-a-very-long-name-indeed", "unknown option '--bogus-option-with-a-ver...'");
    bad(&length_lab, "1000003-and-then-some", "unexpected argument '1000003-an...'");
    bad(&length_lab, "--seed 123456789012345678901234567890", "'1234567890...' is not a seed");
    bad(&length_lab, "-r 123456789012345678901234567890", "'1234567890...' is not a repetition count");
    bad(&cpu_lab, "-b 256", "no thread blocks");
    bad(&cpu_lab, "--sweep", "unknown option");

    good(&matrix_lab, "", &a);
    check(a.nx == 2048 && a.ny == 2048 && a.n == 2048LL * 2048 && a.block_x == 16 && a.block_y == 16,
          "args matrix defaults", "defaults not applied");
    good(&matrix_lab, "-n 8192x4096 -b 32x8", &a);
    check(a.nx == 8192 && a.ny == 4096 && a.block_x == 32 && a.block_y == 8, "args matrix NXxNY", "wrong");
    good(&matrix_lab, "-n 33", &a);
    check(a.nx == 33 && a.ny == 33, "args matrix square", "wrong");
    good(&matrix_lab, "--nx 1 --ny 1000", &a);
    check(a.nx == 1 && a.ny == 1000 && a.n == 1000, "args matrix --nx --ny", "wrong");
    good(&matrix_lab, "-n 2K -b 1x32", &a);
    check(a.nx == 2048 && a.block_x == 1 && a.block_y == 32, "args matrix suffix and thin block", "wrong");
    bad(&matrix_lab, "-n 0x5", "-n");
    bad(&matrix_lab, "-n 12x", "-n");
    bad(&matrix_lab, "-n x12", "-n");
    bad(&matrix_lab, "-n 65536x65536", "int indices");
    bad(&matrix_lab, "--nx 0", "--nx");
    bad(&matrix_lab, "-b 16x128", "block shape");
    bad(&matrix_lab, "-b 3x32", "block shape");
    bad(&matrix_lab, "-b 4x4", "block shape");
    bad(&matrix_lab, "-b 16", "block shape");
    bad(&matrix_lab, "-b 16x16x16x16x16x16", "'16x16x16x1...' is not a block shape");
    bad(&matrix_lab, "-n 99999999999999999999x1", "'9999999999...' is not a shape");
    bad(&matrix_lab, "--ny 99999999999999999999", "--ny: '9999999999...' is not a matrix side");
    bad(&matrix_lab, "--check -n 16777216x16777216", "has 281474976710656 elements, over 2147483647");

    /* the parser never reads past argv: a value-taking flag last */
    for (i = 0; i < 3; ++i) {
        const char *flags[] = {"-k", "-r", "--seed"};
        char line[32];
        snprintf(line, sizeof line, "%s", flags[i]);
        bad(&length_lab, line, "needs a value");
    }
    (void)err;
}

/* --exercises and -k NAMES with exercises (common/args.c's parser) */
void test_exercise_args(void)
{
    wb_args a;
    char err[1200], *text;
    size_t len;
    FILE *m;

    good(&ex_lab, "", &a);
    check(!a.exercises && a.n == 1 << 24 && a.selected[0] && a.selected[1] && a.selected[2] && a.ex_selected[0] &&
              a.ex_selected[1],
          "exercises: a plain run selects every kernel and exercise, no exercise run", "wrong");
    good(&ex_lab, "--exercises", &a);
    check(a.exercises && !a.n_given && a.n == WB_EXERCISE_N && a.n == 16777213 && a.selected[0] &&
              a.selected[2] && a.ex_selected[0] && a.ex_selected[1],
          "--exercises without -n runs every kernel and exercise at the lab's exercise_n (2^24 - 3)", "wrong");
    good(&ex_lab, "--exercises -n 1000", &a);
    check(a.exercises && a.n == 1000 && a.n_given, "--exercises -n 1000 keeps the given n", "wrong");
    good(&ex_lab, "-n 17 --exercises", &a);
    check(a.exercises && a.n == 17, "-n before --exercises is kept too", "wrong");
    good(&ex_lab, "-k delta", &a);
    check(a.exercises && a.n == WB_EXERCISE_N && a.ex_selected[0] && !a.ex_selected[1] && !a.selected[0] &&
              !a.selected[1] && !a.selected[2],
          "-k naming an exercise asks for the exercise run, that exercise alone, at exercise_n", "wrong");
    good(&ex_lab, "-k epsilon,beta -n 5", &a);
    check(a.exercises && a.n == 5 && !a.ex_selected[0] && a.ex_selected[1] && !a.selected[0] && a.selected[1] &&
              !a.selected[2],
          "-k mixes kernels and exercises", "wrong");
    good(&ex_lab, "-k beta", &a);
    check(!a.exercises && a.n == 1 << 24 && a.selected[1] && !a.selected[0] && !a.ex_selected[0] &&
              !a.ex_selected[1],
          "-k naming kernels only: no exercise run, no exercise selected", "wrong");
    good(&ex_lab, "--exercises -k alpha", &a);
    check(a.exercises && a.selected[0] && !a.selected[1] && !a.ex_selected[0] && !a.ex_selected[1],
          "--exercises -k KERNEL: the exercise run of that kernel alone", "wrong");
    good(&ex_cpu_lab, "--exercises --trace", &a);
    check(a.exercises && a.extra && a.n == WB_EXERCISE_N, "--exercises with a lab's own flag (CPU lab)",
          "wrong");
    good(&ex_matrix_lab, "--exercises", &a);
    check(a.exercises && a.nx == 1000 && a.ny == 333 && a.n == 333000,
          "--exercises on a matrix lab runs at its exercise_nx x exercise_ny", "wrong");
    good(&ex_matrix_lab, "--exercises -n 64x32", &a);
    check(a.nx == 64 && a.ny == 32, "--exercises -n NXxNY keeps the given matrix", "wrong");
    bad(&ex_lab, "-k zeta", "no kernel named 'zeta' (./labE --list names them)");
    bad(&ex_lab, "-k delta,", "empty");
    bad(&ex_lab, "--exercise", "unknown option");
    bad(&length_lab, "--exercises", "--exercises: labX has none; leave it out");
    { /* what a program does not offer is refused by the parser, --explain too */
        char *argv[] = {(char *)"prog", (char *)"--explain", (char *)"--list", NULL};
        check(wb_parse_args(&length_lab, 0, 3, argv, &a, err, sizeof err) == WB_EXIT_USAGE &&
                  strstr(err, "--explain: labX has none"),
              "--explain refused by the parser where the program has no explainer", err);
        check(wb_parse_args(&length_lab, WB_OFFER_EXPLAIN, 3, argv, &a, err, sizeof err) == 0 && a.explain,
              "--explain taken where the program offers it", err);
    }
    good(&length_lab, "--dry-run --capabilities", &a);
    check(a.dry_run && a.capabilities, "--dry-run and --capabilities parse", "not set");
    bad(&cpu_lab, "-k delta", "delta");
    check(wb_exercise_index(&ex_lab, "epsilon") == 1 && wb_exercise_index(&ex_lab, "alpha") == -1 &&
              wb_exercise_index(&length_lab, "delta") == -1,
          "wb_exercise_index", "wrong");

    m = open_memstream(&text, &len);
    wb_print_usage(&ex_lab, 1, m);
    fclose(m);
    check(strstr(text, "[--exercises]") && strstr(text, "labE_x/exercises.cuh") &&
              strstr(text, "n = 16777213 (2^24 - 3)"),
          "-h names --exercises, the file and the size", text);
    free(text);
    m = open_memstream(&text, &len);
    wb_print_usage(&length_lab, 1, m);
    fclose(m);
    check(!strstr(text, "--exercises"), "-h of a lab without exercises does not offer --exercises", text);
    check(strstr(text, "[--explain]") && strstr(text, "  --explain "), "-h of a program that explains offers it",
          text);
    free(text);
    m = open_memstream(&text, &len);
    wb_print_usage(&length_lab, 0, m);
    fclose(m);
    check(!strstr(text, "--explain"), "-h of a program without --explain does not offer it", text);
    free(text);
    m = open_memstream(&text, &len);
    wb_print_list(&ex_lab, m);
    fclose(m);
    check(strstr(text, "exercises in labE_x/exercises.cuh (./labE --exercises runs them):\n") &&
              strstr(text, "\ndelta ") && strstr(text, " write ") && strstr(text, "(measured against alpha)") &&
              strstr(text, "\nepsilon ") && strstr(text, " fix ") && strstr(text, "(measured against gamma)"),
          "--list names each exercise, its kind and its reference", text);
    free(text);
    (void)err;
}

void test_type_args(void)
{
    wb_args a;
    good(&typed_lab, "", &a);
    check(a.type == WB_INT && a.values == WB_VALUES_EXACT, "--type int and --values exact by default", "");
    good(&typed_lab, "--type float", &a);
    check(a.type == WB_FLOAT && a.values == WB_VALUES_EXACT, "--type float", "");
    good(&typed_lab, "--type double --values uniform", &a);
    check(a.type == WB_DOUBLE && a.values == WB_VALUES_UNIFORM, "--type double --values uniform", "");
    good(&typed_lab, "--values exact --type int", &a);
    check(a.type == WB_INT, "--type int given", "");
    bad(&typed_lab, "--type half", "int, float or double");
    bad(&typed_lab, "--type", "needs a value");
    bad(&typed_lab, "--values random --type float", "exact");
    bad(&typed_lab, "--values uniform", "float");
    bad(&typed_lab, "--values uniform --type int", "float");
    bad(&typed_lab, "--exercises --type float", "int functions");
    bad(&typed_lab, "-k delta --type double", "int functions");
    /* a lab of int sums only (lab05-finish) */
    bad(&length_lab, "--type float", "--type float: labX sums int only; it takes int");
    bad(&length_lab, "--type double", "sums int only");
    bad(&length_lab, "--type float --values uniform", "sums int only");
    bad(&length_lab, "--values uniform", "int only");
    good(&length_lab, "--type int", &a);
    check(a.type == WB_INT, "a lab of int only takes --type int", "");
    bad(&matrix_lab, "--type float", "matrix kernels have one element type; leave --type out");
}

/* A lab's two-word choice (wb_lab.choice; labs 02-04: --finish host|device);
 * a lab without one refuses the flag as an unknown option (the CSV's finish
 * column: test_report) */
void test_finish(void)
{
    static const wb_lab finish_lab = {
        .lab = "labR", .title = "a relaunching lab", .shape = WB_LENGTH, .default_n = 1 << 24,
        .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
        .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(fake), .choice = &fake_finish,
    };
    wb_args a;
    char *text;

    good(&finish_lab, "", &a);
    check(!a.choice, "--finish: the host finish by default", "device");
    good(&finish_lab, "--finish device -n 33", &a);
    check(a.choice && a.n == 33, "--finish device", "not set");
    good(&finish_lab, "--finish device --finish host", &a);
    check(!a.choice, "--finish host (the last one given wins)", "device");
    bad(&finish_lab, "--finish", "needs a value");
    bad(&finish_lab, "--finish x", "'x' is not a finish");
    bad(&finish_lab, "--finish Device", "give host");
    bad(&finish_lab, "--finish gpu -n 5", "'gpu' is not a finish");
    bad(&length_lab, "--finish device", "unknown option '--finish'");
    bad(&length_lab, "--finish", "unknown option '--finish'");
    bad(&matrix_lab, "--finish host", "unknown option '--finish'");
    text = usage_of(&finish_lab);
    check(strstr(text, "[--finish F]") && strstr(text, "  --finish F "), "-h offers --finish", text);
    free(text);
    text = usage_of(&length_lab);
    check(!strstr(text, "--finish"), "-h of a lab without the choice does not offer --finish", text);
    free(text);

}

/* --check: comma lists of -n, -b, --type, --finish, --seed, each item
 * checked as one value is; lists only with --check */
void test_check_args(void)
{
    static const wb_lab list_lab = {
        .lab = "labL", .title = "a lab with every list", .shape = WB_LENGTH, .default_n = 1 << 24,
        .max_n = WB_INT_MAX, .max_n_reason = "int sum", .default_block_x = 512, .default_block_y = 1,
        .uses_block = 1, .default_reps = 20, .kernels = WB_TABLE(fake), .exercises = WB_TABLE(fake_ex),
        .exercise_file = "labL_x/exercises.cuh", .exercise_n = WB_EXERCISE_N, .types = WB_ALL_TYPES,
        .choice = &fake_finish,
    };
    wb_args a;
    char *text;

    good(&list_lab, "", &a);
    check(!a.check && a.n_count == 1 && a.n_list[0] == 1 << 24 && a.block_count == 1 && a.bx_list[0] == 512 &&
              a.type_count == 1 && a.type_list[0] == WB_INT && a.choice_count == 1 && !a.choice_list[0] &&
              a.seed_count == 1 && a.seed_list[0] == 1,
          "lists: a run without --check holds its one value in each list", "lists not filled");
    good(&list_lab, "--check -n 1,33,2^10,16M -b 32,1024 --type int,double --finish host,device --seed 3,0", &a);
    check(a.check && a.format == WB_CSV && a.n_count == 4 && a.n_list[2] == 1024 && a.n_list[3] == 16777216 &&
              a.block_count == 2 && a.bx_list[1] == 1024 && a.type_count == 2 && a.type_list[1] == WB_DOUBLE &&
              a.choice_count == 2 && a.choice_list[1] == 1 && a.seed_count == 2 && a.seed_list[1] == 0 &&
              a.n == 1 && a.block_x == 32 && a.type == WB_INT && !a.choice && a.seed == 3,
          "--check: every list in order, the first items as the run's values", "lists wrong");
    good(&list_lab, "-n 5,7 --check", &a);
    check(a.n_count == 2 && a.n_list[1] == 7, "--check after the list still allows it", "not a list");
    good(&list_lab, "--check -n 5,7 -n 9", &a);
    check(a.n_count == 1 && a.n == 9, "--check: an option given again starts its list anew", "kept the old list");
    good(&list_lab, "--check --exercises", &a);
    check(a.n_count == 1 && a.n_list[0] == WB_EXERCISE_N, "--check --exercises: at the exercise length", "other n");
    bad(&list_lab, "-n 1,2", "lists need --check");
    bad(&list_lab, "-b 32,64", "lists need --check");
    bad(&list_lab, "--seed 1,2", "lists need --check");
    bad(&list_lab, "--check -n 1,,2", "an empty item in '1,,2'");
    bad(&list_lab, "--check -n 1,", "an empty item");
    bad(&list_lab, "--check -n 1,x", "'x' is not a length");
    bad(&list_lab, "--check -b 32,48", "'48' is not a block size");
    bad(&list_lab, "--check --type int,half", "'half' is not an element type");
    bad(&list_lab, "--check --finish host,gpu", "'gpu' is not a finish");
    bad(&list_lab, "--check --seed 1,x", "'x' is not a seed");
    bad(&list_lab, "--check --type int,float --values uniform", "--values uniform draws from [-1, 1)");
    bad(&list_lab, "--check --type int,float --exercises", "your exercises are int functions");
    bad(&list_lab, "--check --json", "leave out --json");
    bad(&list_lab, "--check --explain", "leave out --explain");
    bad(&length_lab, "--check --sweep", "leave out --sweep");
    good(&matrix_lab, "--check -n 3x5,7 -b 32x1,16x16", &a);
    check(a.n_count == 2 && a.nx_list[0] == 3 && a.ny_list[0] == 5 && a.nx_list[1] == 7 && a.ny_list[1] == 7 &&
              a.n_list[0] == 15 && a.block_count == 2 && a.by_list[1] == 16,
          "--check: a list of matrix shapes and blocks", "shapes wrong");
    bad(&matrix_lab, "--check -n 3x5,100000x100000", "100000x100000 has 10000000000 elements");
    bad(&matrix_lab, "--check -n 3x5,4x4 --nx 7", "leave --nx out");
    good(&matrix_lab, "-n 3x5 --nx 7", &a);
    check(a.nx == 7 && a.ny == 5 && a.nx_list[0] == 7, "--nx after -n changes the one shape", "not changed");
    text = usage_of(&list_lab);
    check(strstr(text, "  --check ") && strstr(text, "--finish,") && strstr(text, "--type,"),
          "-h explains --check with the lab's own lists", text);
    free(text);
    text = usage_of(&matrix_lab);
    check(strstr(text, "  --check ") && !strstr(text, "--finish,") && !strstr(text, "--type,"),
          "-h of a matrix lab: --check without --type or --finish", text);
    free(text);
}
