# Makefile - builds the labs of the CUDA C reduction and transpose workbook.
#
#   make lab02 && ./lab02      build one lab, leave ./lab02 here, run it
#   make test                  build everything and run the test suite
#   make help                  every target with one line
#
# lab01 and the CPU tests need only gcc: `make lab01` works with no CUDA toolkit.

# ---- things you may set -------------------------------------------------
CUDA_ARCH ?=          # compute capability without the dot, e.g. 90 for H100, 86 for RTX 3090;
                      # empty: the GPU's own (sh tools/gpu.sh cc), or without a GPU a fat binary for 7.5+
NVCC      ?= nvcc     # the CUDA compiler driver
DLCM      ?=          # lab06 only: ca (loads cached in L1) or cg (L1 bypassed); empty: the default
SOLUTIONS ?=          # 1: build with the solutions (labNN_*/solutions/), not the student's files
V         ?= 0        # V=1 shows the full commands
RESULTS   ?= results  # make grade: the folder holding the students' --csv outputs
FORMAT    ?=          # make grade: csv writes the gradebook CSV instead of the report
SOURCES   ?=          # make grade: a folder per student of exercise files, built and run here
SLURM     ?=          # make grade SOURCES=dir SLURM=1: write a Slurm array job instead
CALIBRATION ?=        # make grade RESULTS=dir: the speed checks' calibration (tools/grader/calibrate.sh)
LAB       ?=          # make profile, make trace: which lab
KERNEL    ?=          # make profile: one kernel of it (default: all); make trace: the kernel
BIN       ?=          # where the lab binaries go, as a prefix ending in /; empty: here (./lab02)
NOCDP     ?=          # 1: lab03 without dynamic parallelism (make sanitize builds it so)
DEST      ?=          # make handout: the folder for the students' copy
NAME      ?=          # make handin, make submit: your name, in the files' names (handin/NAME-labNN.csv)
N         ?=          # make trace: the length or shape traced (default: the trace's small one)
B         ?=          # make trace: the block
SVG       ?=          # make trace: also write the picture to this SVG file
STRICT    ?=          # make bench: 1 exits 1 when a bar is missed

ifeq ($(origin CC),default)
CC := gcc
endif
CFLAGS   ?= -O2 -std=c11 -Wall -Wextra
NVFLAGS  ?= -O3 -std=c++20 -Xcompiler -Wall
DEPFLAGS  = -MMD -MP
# (make keeps the blanks before a comment in a value: strip them)
$(foreach v,CUDA_ARCH NVCC DLCM SOLUTIONS V RESULTS CALIBRATION \
    FORMAT SOURCES SLURM LAB KERNEL BIN NOCDP DEST NAME N B SVG,$(eval override $(v) := $$(strip $$($(v)))))

Q := $(if $(filter 1,$(V)),,@)

HAVE_NVCC := $(shell command -v $(NVCC) >/dev/null 2>&1 && echo yes)

# `make` alone builds every lab (the buildinfo rules below come first)
.DEFAULT_GOAL := all

# ---- target architectures -------------------------------------------------
# The GPU as CUDA sees it (tools/gpu.sh: device 0 after CUDA_VISIBLE_DEVICES,
# CUDA's order), asked once: sub-makes inherit the answer. Not for make clean.
NVCC_ARCHS := $(if $(HAVE_NVCC),$(shell $(NVCC) --list-gpu-arch 2>/dev/null | tr '\n' ' '))
ifeq ($(origin GPU_CC),undefined)
GPU_CC := $(if $(filter-out clean,$(or $(MAKECMDGOALS),all)),$(shell NVCC="$(NVCC)" sh tools/gpu.sh cc 2>/dev/null))
endif
export GPU_CC
ifeq ($(CUDA_ARCH),)
# the GPU's own, where this nvcc can compile for it (else the fat binary's PTX serves it)
CUDA_ARCH_FOUND := $(if $(findstring compute_$(GPU_CC) ,$(NVCC_ARCHS) ),$(GPU_CC))
endif
ifneq ($(CUDA_ARCH),)
GENCODE := -gencode arch=compute_$(CUDA_ARCH),code=[sm_$(CUDA_ARCH),compute_$(CUDA_ARCH)]
ARCH_NOTE := sm_$(CUDA_ARCH) (CUDA_ARCH)
else ifneq ($(CUDA_ARCH_FOUND),)
GENCODE := -gencode arch=compute_$(CUDA_ARCH_FOUND),code=[sm_$(CUDA_ARCH_FOUND),compute_$(CUDA_ARCH_FOUND)]
ARCH_NOTE := sm_$(CUDA_ARCH_FOUND) (the GPU CUDA finds: sh tools/gpu.sh cc)
else
# No GPU here (or one newer than this nvcc): machine code for every
# architecture this nvcc supports from 7.5 (CUDA 13's first) to 12.0, plus
# PTX of the newest for later GPUs.
FAT_WANTED := 75 80 86 89 90 100 120
FAT_ARCHS := $(foreach a,$(FAT_WANTED),$(if $(findstring compute_$(a) ,$(NVCC_ARCHS) ),$(a)))
FAT_PTX := $(lastword $(FAT_ARCHS))
GENCODE := $(foreach a,$(FAT_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) -gencode arch=compute_$(FAT_PTX),code=compute_$(FAT_PTX)
FAT_COMMA := ,
FAT_EMPTY :=
ARCH_NOTE := fat binary, sm_{$(subst $(FAT_EMPTY) $(FAT_EMPTY),$(FAT_COMMA),$(FAT_ARCHS))} + compute_$(FAT_PTX) PTX ($(if $(GPU_CC),sm_$(GPU_CC) is newer than this nvcc,no GPU found))
endif

# ---- the labs ---------------------------------------------------------------
# tools/labs.conf lists them, in order: a lab is a name and its top folder;
# CPU_LABS are those of `device cpu`, built with gcc from the folder's .c
# files, the others with nvcc from its .cu files. SIDES: the side programs,
# whose folder is inside a lab's (lab05-finish: lab05_smem/finish), each
# built with nvcc from the .cu files of its folder (compiled by its lab's rule)
LABS_CONF ?= tools/labs.conf
LAB_DIRS := $(shell awk '!/^#/ && $$2 == "folder" && $$3 !~ /\// { print $$3 }' $(LABS_CONF))
LABS     := $(foreach d,$(LAB_DIRS),$(firstword $(subst _, ,$(d))))
CPU_LABS := $(shell awk '!/^#/ && $$2 == "device" && $$3 == "cpu" { print $$1 }' $(LABS_CONF))
GPU_LABS := $(filter-out $(CPU_LABS),$(LABS))
dir_of    = $(filter $(1)_%,$(LAB_DIRS))
SIDE_DIRS := $(shell awk '!/^#/ && $$2 == "folder" && $$3 ~ /\// { print $$1 "=" $$3 }' $(LABS_CONF))
SIDES    := $(foreach p,$(SIDE_DIRS),$(firstword $(subst =, ,$(p))))
side_dir  = $(patsubst $(1)=%,%,$(filter $(1)=%,$(SIDE_DIRS)))

ifneq ($(filter-out 1,$(SOLUTIONS)),)
$(error SOLUTIONS=$(SOLUTIONS) is not accepted: give SOLUTIONS=1 (build with the solutions) or leave it out)
endif
ifeq ($(SOLUTIONS),1)
ifeq ($(wildcard $(LAB_DIRS:=/solutions)),)
$(error SOLUTIONS=1: this copy of the workbook has no solutions (a student's handout); build without it)
endif
endif

# what a run's `build` column says: the GPU code, lab06's DLCM, the solutions
ARCH_TAG := $(if $(CUDA_ARCH),sm_$(CUDA_ARCH),$(if $(CUDA_ARCH_FOUND),sm_$(CUDA_ARCH_FOUND),fat))
SOL_TAG  := $(if $(SOLUTIONS),+solutions)
SOL_DEF  := $(if $(SOLUTIONS),-DWB_SOLUTIONS=1)

ifneq ($(filter-out ca cg,$(DLCM)),)
$(error DLCM=$(DLCM) is not accepted: give DLCM=ca (L1-cached loads) or DLCM=cg (L1 bypassed), or leave it out)
endif

BUILD := build
COMMON_C_OBJ   := $(patsubst %,$(BUILD)/common/%.o,base text types numbers lab args usage report table report_data check main)
# the device the rows run on: the CPU's (cpu_device.o) or the GPU's (gpu.o)
CPU_DEVICE_OBJ := $(BUILD)/common/cpu_device.o
COMMON_CU_OBJ  := $(BUILD)/common/gpu.o $(BUILD)/common/reduce_pass.o $(BUILD)/common/reduce.o
# a CPU lab's objects (LAB_OBJ): its folder's .c files, its exercises a .c
# file of their own (the student's or the solutions'); LAB_LIB_OBJ all but
# its main (LAB.c), which lab01's tests link
define cpu_lab_objects
$(1)_EX      := $$(wildcard $(call dir_of,$(1))/$(if $(SOLUTIONS),solutions/)exercises.c)
$(1)_OBJ     := $$(patsubst %.c,$(BUILD)/%.o,$$(filter-out %/exercises.c,$$(wildcard $(call dir_of,$(1))/*.c)) $$($(1)_EX))
$(1)_LIB_OBJ := $$(filter-out %/$(1).o,$$($(1)_OBJ))
endef
$(foreach l,$(CPU_LABS),$(eval $(call cpu_lab_objects,$(l))))

# per-lab nvcc flags (lab06 takes DLCM) and link flags
LAB_NVFLAGS_lab06 := $(if $(DLCM),-Xptxas -dlcm=$(DLCM) -DWB_DLCM='"$(DLCM)"')
BUILD_TAG_lab06   := $(if $(DLCM),+dlcm=$(DLCM))
LAB_LDFLAGS_lab06 := -lcublas # the library row, cublasSgeam
# lab03's gpuRecursiveReduce launches kernels from the device (dynamic
# parallelism): relocatable device code, linked with the device runtime.
# NOCDP=1 builds lab03 without it (-DWB_NO_CDP leaves the two recursive
# kernels out): compute-sanitizer's racecheck, synccheck and initcheck
# refuse a program that can launch from the device (make sanitize)
LAB_NVFLAGS_lab03 := $(if $(NOCDP),-DWB_NO_CDP,-rdc=true)
LAB_LDFLAGS_lab03 := $(if $(NOCDP),,-rdc=true -lcudadevrt)
BUILD_TAG_lab03   := $(if $(NOCDP),+nocdp)

# The exercise file a lab is built with (the student's, or with SOLUTIONS=1
# the solutions'): its cksum is the fingerprint a run's CSV carries.
ex_file = $(call dir_of,$(1))/$(if $(SOLUTIONS),solutions/)exercises.$(if $(filter $(CPU_LABS),$(1)),c,cuh)

# what a lab's build column says (wb_build_id)
build_id = $(if $(filter $(CPU_LABS),$(1)),cpu,$(ARCH_TAG))$(BUILD_TAG_$(1))$(SOL_TAG)

# build/buildinfo/NAME.c: wb_build_id and wb_build_fingerprint (workbook.h),
# rewritten only when they change. $(1) name, $(2) build id, $(3) exercise file or empty
# (BUILDINFO_C: printf's format, the build id and the fingerprint its two %s)
BUILDINFO_C := const char wb_build_id[] = "%s";\nconst char wb_build_fingerprint[] = "%s";\n
define buildinfo_rule
$(BUILD)/buildinfo/$(1).c: FORCE
	@mkdir -p $$(@D)
	@fp=$$$$( [ -r "$(3)" ] && cksum < "$(3)" | awk '{ printf "%08x", $$$$1 }'); \
	 printf '$(BUILDINFO_C)' "$(2)" "$$$$fp" > $$@.new; \
	 cmp -s $$@.new $$@ && rm -f $$@.new || mv -f $$@.new $$@
endef
$(foreach l,$(LABS),$(eval $(call buildinfo_rule,$(l),$(call build_id,$(l)),$(call ex_file,$(l)))))
$(foreach s,$(SIDES),$(eval $(call buildinfo_rule,$(s),$(ARCH_TAG),)))
$(eval $(call buildinfo_rule,tests,cpu,))
$(eval $(call buildinfo_rule,checker,cpu,))
$(BUILD)/buildinfo/%.o: $(BUILD)/buildinfo/%.c
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

.PHONY: all help student-objects test test-build test-all test-slurm snapshots sanitize profile results grade clean FORCE cpu-tests handout handin solutions-build checker nocdp-build

all: $(addprefix $(BIN),$(LABS) $(if $(HAVE_NVCC),$(SIDES))) ## build every lab (the default: plain make)

ifneq ($(BIN),)
.PHONY: $(LABS) $(SIDES)
$(LABS) $(SIDES): %: $(BIN)%
endif

help: ## this list
	@echo "targets:"
	@grep -hE '^[a-z0-9%-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed -e 's/:.*## /\t/' | awk -F'\t' '{ l = sprintf("  %-16s", $$1); n = split($$2, w, " "); for (i = 1; i <= n; i++) { if (length(l) + 1 + length(w[i]) > 100) { print l; l = sprintf("%18s", "") " " w[i] } else l = l " " w[i] } print l }'
	@printf '  %-16s build one lab as ./labNN\n' '$(firstword $(LABS))..$(lastword $(LABS))'
	@echo "                   (make lab06 DLCM=cg builds it with -Xptxas -dlcm=cg)"
	@$(foreach s,$(SIDES),printf '  %-16s %s\n' '$(s)' "a side program of $(shell awk '$$1 == "$(s)" && $$2 == "part-of" { print $$3 }' $(LABS_CONF))'s chapter (./$(s) -h says more)";)
	@echo "variables (make TARGET NAME=value):"
	@awk '/^# ---- things you may set/ { on = 1; next } on && !NF { exit } \
	  on && /^[A-Z_]+ +\?=/ { v = $$1; sub(/^[^#]*# /, ""); printf "  %-16s %s\n", v, $$0; next } \
	  on && /^ +# / { sub(/^ +# /, ""); printf "  %-16s %s\n", "", $$0 }' $(firstword $(MAKEFILE_LIST))
	@echo "now: CUDA_ARCH=$(if $(CUDA_ARCH),$(CUDA_ARCH),(auto)) NVCC=$(NVCC) DLCM=$(DLCM) V=$(V)"
	@echo "GPU code: $(ARCH_NOTE)"

# ---- the CPU labs (lab01): gcc alone ---------------------------------------------
define cpu_lab_rules
$(BIN)$(1): $$($(1)_OBJ) $(COMMON_C_OBJ) $(CPU_DEVICE_OBJ) $(BUILD)/buildinfo/$(1).o
	@mkdir -p $$(@D)
	@echo "  LINK   $$@"
	$(Q)$(CC) $(CFLAGS) -o $$@ $$^ -lm
endef
$(foreach l,$(CPU_LABS),$(eval $(call cpu_lab_rules,$(l))))

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC     $<"
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -Icommon -c -o $@ $<
# (lab01's solutions include "exercises.h" as a student's file does: from the lab's folder)
$(BUILD)/lab01_cpu_reduce/solutions/%.o: CFLAGS += -Ilab01_cpu_reduce

# ---- GPU labs: one binary from every .cu in the lab's directory -------------
# (the exercise file, exercises.cuh, is compiled in exercises.cu alone: a
# student's change recompiles that one file; tools/grader/build_student.sh too)
lab_nvcc = $(NVCC) $(NVFLAGS) $(GENCODE) $(LAB_NVFLAGS_$(1)) $(SOL_DEF)
lab_link = $(NVCC) $(GENCODE) $(LAB_LDFLAGS_$(1))
define gpu_lab_rules
$(1)_SRC := $$(wildcard $(call dir_of,$(1))/*.cu $(call dir_of,$(1))/matrix/*.cu)
$(1)_OBJ := $$(patsubst %.cu,$(BUILD)/%.o,$$($(1)_SRC))
$(BIN)$(1): $$($(1)_OBJ) $(COMMON_CU_OBJ) $(COMMON_C_OBJ) $(BUILD)/buildinfo/$(1).o | need-nvcc
	@mkdir -p $$(@D)
	@echo "  LINK   $$@"
	$(Q)$$(call lab_link,$(1)) -o $$@ $$^ -lm
$(BUILD)/$(call dir_of,$(1))/%.o: $(call dir_of,$(1))/%.cu $(BUILD)/$(call dir_of,$(1))/flags | need-nvcc
	@mkdir -p $$(@D)
	@echo "  NVCC   $$<"
	$(Q)$$(call lab_nvcc,$(1)) $(DEPFLAGS) -Icommon -I$(call dir_of,$(1)) -c -o $$@ $$<
$(BUILD)/$(call dir_of,$(1))/flags: FORCE
	@mkdir -p $$(@D)
	@echo '$(NVFLAGS) $(GENCODE) $$(LAB_NVFLAGS_$(1)) $(SOL_DEF)' | cmp -s - $$@ || echo '$(NVFLAGS) $(GENCODE) $$(LAB_NVFLAGS_$(1)) $(SOL_DEF)' > $$@
endef
$(foreach l,$(GPU_LABS),$(eval $(call gpu_lab_rules,$(l))))

# the side programs (lab05-finish: four finishes of a one-pass reduction
# against CUB): the .cu files of their folder, compiled by their lab's
# pattern rule above (% matches finish/...)
define side_rules
$(BIN)$(1): $$(patsubst %.cu,$(BUILD)/%.o,$$(wildcard $(call side_dir,$(1))/*.cu)) $(COMMON_CU_OBJ) $(COMMON_C_OBJ) $(BUILD)/buildinfo/$(1).o | need-nvcc
	@mkdir -p $$(@D)
	@echo "  LINK   $$@"
	$(Q)$(NVCC) $(GENCODE) -o $$@ $$^ -lm
endef
$(foreach s,$(SIDES),$(eval $(call side_rules,$(s))))

# ---- a grader's build of one student's lab (tools/grader/build_student.sh) -----------
# make student-objects builds every lab as shipped and writes, for each,
# $(BUILD)/student/labNN.sh: how tools/grader/build_student.sh builds it again from
# one student's exercise file alone, in a folder of its own, linked against
# this build's other objects (the same compiler lines as above; sh reads it
# with $$top set to the workbook).
STUDENT_LABS := $(if $(HAVE_NVCC),$(LABS),$(CPU_LABS))
define student_conf
# $(BUILD)/student/$(1).sh - written by make student-objects (Makefile): how
# tools/grader/build_student.sh builds $(1) again from one student's exercise file.
settings='CUDA_ARCH=$(CUDA_ARCH) DLCM=$(DLCM) NOCDP=$(NOCDP)'
build_id='$(call build_id,$(1))'
lab_dir='$(call dir_of,$(1))'
lab_file='$(notdir $(call ex_file,$(1)))'
lab_unit='$(if $(filter $(CPU_LABS),$(1)),exercises.c,exercises.cu)'
compiler='$(firstword $(if $(filter $(CPU_LABS),$(1)),$(CC),$(NVCC)))'
objects='$(filter-out %/exercises.o,$(if $(filter $(CPU_LABS),$(1)),$($(1)_OBJ) $(COMMON_C_OBJ) $(CPU_DEVICE_OBJ),$($(1)_OBJ) $(COMMON_CU_OBJ) $(COMMON_C_OBJ)))'
flags='$(if $(filter $(CPU_LABS),$(1)),,$(BUILD)/common/flags $(BUILD)/$(call dir_of,$(1))/flags)'
# (the flags files' text when these objects were built: $(BUILD)/student/$(1).flags)
buildinfo_c='$(BUILDINFO_C)'
compile_unit() { $(if $(filter $(CPU_LABS),$(1)),$(CC) $(CFLAGS),$(call lab_nvcc,$(1))) -I"$$top/common" -I"$$top/$(call dir_of,$(1))" "$$@"; }
compile_c() { $(CC) $(CFLAGS) "$$@"; }
link_lab() { $(if $(filter $(CPU_LABS),$(1)),$(CC) $(CFLAGS),$(call lab_link,$(1))) "$$@" -lm; }
endef
$(BUILD)/student/%.sh: $(BIN)% Makefile
	@echo "  WRITE  $@"$(shell mkdir -p $(@D))$(file >$@.new,$(call student_conf,$*))
	@cat /dev/null $(if $(filter $(CPU_LABS),$*),,$(BUILD)/common/flags $(BUILD)/$(call dir_of,$*)/flags) >$(BUILD)/student/$*.flags
	@mv -f $@.new $@

student-objects: $(STUDENT_LABS:%=$(BUILD)/student/%.sh) ## every lab and the objects tools/grader/build_student.sh links a student's exercise file with (a grader, once per class)
	@$(if $(HAVE_NVCC),,echo "make student-objects: $(CPU_LABS) only: $(NVCC) not found, the GPU labs need it" >&2)
ifneq ($(filter student-objects,$(MAKECMDGOALS)),)
ifneq ($(SOLUTIONS),)
$(error make student-objects: not with SOLUTIONS=1: the students' files are built against the objects of the workbook as shipped)
endif
ifneq ($(BUILD),build)
$(error make student-objects: BUILD=$(BUILD): tools/grader/build_student.sh reads build/; leave BUILD out)
endif
endif

$(BUILD)/common/%.o: common/%.cu $(BUILD)/common/flags | need-nvcc
	@mkdir -p $(@D)
	@echo "  NVCC   $<"
	$(Q)$(NVCC) $(NVFLAGS) $(GENCODE) $(DEPFLAGS) -Icommon -c -o $@ $<

$(BUILD)/common/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(NVFLAGS) $(GENCODE)' | cmp -s - $@ || echo '$(NVFLAGS) $(GENCODE)' > $@

.PHONY: need-nvcc
need-nvcc:
	@if [ "$(HAVE_NVCC)" != yes ]; then echo "make: $(NVCC) not found: the GPU labs need the CUDA toolkit (docs/setup.md); lab01 builds without it" >&2; exit 2; fi

# ---- tests ----------------------------------------------------------------------
# tests/run runs them: tests/unit/ (C unit tests, lab01's command line),
# tests/gpu/ (the GPU labs), tests/tools/ (grader, docs, widths, build, handout)
TEST_BINS := $(BUILD)/tests/test_common $(BUILD)/tests/test_lab01 $(BUILD)/tests/bad_cpu

$(BUILD)/tests/test_common: $(patsubst %,$(BUILD)/tests/unit/%.o,test_common test_args test_numbers test_report) $(COMMON_C_OBJ) $(CPU_DEVICE_OBJ) $(BUILD)/buildinfo/tests.o
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm
$(BUILD)/tests/test_lab01: $(BUILD)/tests/unit/test_lab01.o $(lab01_LIB_OBJ) $(COMMON_C_OBJ) $(CPU_DEVICE_OBJ) $(BUILD)/buildinfo/tests.o
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm
# lab01's runner against broken versions (tests/unit/cpu_harness.sh)
$(BUILD)/tests/bad_cpu: $(BUILD)/tests/harness/bad_cpu.o $(lab01_LIB_OBJ) $(COMMON_C_OBJ) $(CPU_DEVICE_OBJ) $(BUILD)/buildinfo/tests.o
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm
$(BUILD)/tests/%.o: CFLAGS += -Ilab01_cpu_reduce

cpu-tests: $(CPU_LABS) $(TEST_BINS) checker ## the CPU labs (lab01), the CPU tests' programs and the grader's checker (gcc alone)

# ---- the grader's checker (tools/grader/checker/): gcc alone, the workbook's own code only ----
CHECKER := $(BUILD)/checker/checker
$(CHECKER): $(BUILD)/tools/grader/checker/checker.o $(COMMON_C_OBJ) $(CPU_DEVICE_OBJ) $(BUILD)/buildinfo/checker.o
	@mkdir -p $(@D)
	@echo "  LINK   $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm
checker: $(CHECKER) ## the grader's checker: a run's verdicts, recomputed without running it (docs/instructor.md)

# The harness's own tests (tests/gpu/gpu_harness.sh): each GPU runner on
# kernels that write nothing, half, or past their end (tests/harness/), and
# the example lab (tests/example/scanlab.cu, docs/maintainers.md)
HARNESS_TEST_BINS := $(addprefix $(BUILD)/tests/,bad_reduce bad_matrix bad_transpose scanlab)
$(BUILD)/tests/bad_reduce: $(BUILD)/tests/harness/bad_reduce.o
$(BUILD)/tests/bad_matrix: $(BUILD)/tests/harness/bad_matrix.o $(BUILD)/lab05_smem/matrix/matrix_run.o
$(BUILD)/tests/bad_transpose: $(BUILD)/tests/harness/bad_transpose.o $(BUILD)/lab06_transpose/run.o
$(BUILD)/tests/scanlab: $(BUILD)/tests/example/scanlab.o
$(HARNESS_TEST_BINS): $(COMMON_CU_OBJ) $(COMMON_C_OBJ) $(BUILD)/buildinfo/tests.o | need-nvcc
	@echo "  LINK   $@"
	$(Q)$(NVCC) $(GENCODE) -o $@ $^ -lm
$(BUILD)/tests/%.o: tests/%.cu $(BUILD)/common/flags | need-nvcc
	@mkdir -p $(@D)
	@echo "  NVCC   $<"
	$(Q)$(NVCC) $(NVFLAGS) $(GENCODE) $(DEPFLAGS) -Icommon -Ilab05_smem -Ilab06_transpose -c -o $@ $<

# build/tests/holdmem N holds all but N GiB of the GPU's memory until killed
# (tests/tools/holdmem.cu): make test on a GPU that others share, tried here
$(BUILD)/tests/holdmem: $(BUILD)/tests/tools/holdmem.o | need-nvcc
	@echo "  LINK   $@"
	$(Q)$(NVCC) $(GENCODE) -o $@ $^

# lab06 with tests/harness/lab06_first.cuh for its exercises (a kernel right on
# its first launch only, which lab06 must FAIL: tests/gpu/gpu_lab06_exercises.sh). A copy
# of lab06's exercises.cu, so that its #include "exercises.cuh" finds the one
# beside it; linked with lab06's other objects.
LAB06_FIRST := $(BUILD)/tests/lab06-first
$(BUILD)/tests/lab06_first/exercises.cu: lab06_transpose/exercises.cu
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(BUILD)/tests/lab06_first/exercises.cuh: tests/harness/lab06_first.cuh
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(LAB06_FIRST): $(BUILD)/tests/lab06_first/exercises.cu $(BUILD)/tests/lab06_first/exercises.cuh \
    $(filter-out %/exercises.o,$(lab06_OBJ)) $(COMMON_CU_OBJ) $(COMMON_C_OBJ) $(BUILD)/buildinfo/lab06.o | need-nvcc
	@echo "  NVCC   $@"
	$(Q)$(NVCC) $(NVFLAGS) $(GENCODE) -Icommon -Ilab06_transpose -o $@ $< $(filter %.o,$^) $(LAB_LDFLAGS_lab06) -lm

# lab05's code for GPUs before 8.0 (modern.cuh's __CUDA_ARCH__ < 800 path),
# built for sm_75 alone into build/sm75/: on a newer GPU the driver compiles
# its PTX at the first launch (tests/gpu/gpu_lab05.sh runs it under --check)
SM75_BUILD = $(if $(and $(HAVE_NVCC),$(HAVE_GPU)),$(BUILD)/sm75/lab05)
$(BUILD)/sm75/lab05: FORCE
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/sm75 BIN=$(BUILD)/sm75/ CUDA_ARCH=75 lab05

# With a GPU, the tests also run the solutions, built apart (build/solutions/)
HAVE_GPU := $(if $(GPU_CC),yes)
SOLUTIONS_BUILD := $(if $(and $(HAVE_NVCC),$(HAVE_GPU),$(wildcard $(LAB_DIRS:=/solutions))),solutions-build)

solutions-build:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/solutions BIN=$(BUILD)/solutions/ SOLUTIONS=1 all

# make test builds with one job per core unless -j was given
JOBS := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))

# lab03 without dynamic parallelism (build/nocdp/lab03, and with the
# solutions build/nocdp-solutions/lab03), which the trace's tests and
# tools/sanitize.sh run: built before the tests, so that every test part
# sees the same builds, whole
NOCDP_BUILD := $(if $(and $(HAVE_NVCC),$(HAVE_GPU)),nocdp-build)
nocdp-build:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/nocdp BIN=$(BUILD)/nocdp/ NOCDP=1 lab03
	@$(if $(SOLUTIONS_BUILD),$(MAKE) --no-print-directory BUILD=$(BUILD)/nocdp-solutions BIN=$(BUILD)/nocdp-solutions/ NOCDP=1 SOLUTIONS=1 lab03)

test-build: cpu-tests $(if $(HAVE_NVCC),$(GPU_LABS) $(SIDES) $(HARNESS_TEST_BINS) $(BUILD)/tests/holdmem) \
    student-objects $(if $(and $(HAVE_NVCC),$(HAVE_GPU)),$(LAB06_FIRST)) $(SOLUTIONS_BUILD) $(NOCDP_BUILD) $(SM75_BUILD)
# make test's C code compiles with -Werror: a warning fails the build there (CI), while a
# student's own `make lab01` stays forgiving. The sub-makes above inherit it.
test-build: export CFLAGS += -Werror

test: ## build everything, run the CPU tests and (with a GPU) the GPU tests: correctness, then speed
	@$(MAKE) --no-print-directory $(JOBS) test-build
	@sh tests/run $(if $(HAVE_NVCC),,--no-nvcc)

test-all: ## make test, each --check configuration also run alone (timed), then make sanitize
	@$(MAKE) --no-print-directory $(JOBS) test-build
	@WB_TEST_ALL=1 sh tests/run $(if $(HAVE_NVCC),,--no-nvcc)
	@$(if $(and $(HAVE_NVCC),$(HAVE_GPU)),$(MAKE) --no-print-directory sanitize,echo "make sanitize skipped: it needs nvcc and a GPU")

test-slurm: ## a class graded from sources on a real one-node Slurm (root with apt-get; else it says why it skips)
	@sh tests/slurm/test.sh

sanitize: $(GPU_LABS) $(SIDES) ## every GPU lab (and lab05-finish) under compute-sanitizer memcheck, racecheck, synccheck, initcheck
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/nocdp BIN=$(BUILD)/nocdp/ NOCDP=1 lab03
	@$(if $(wildcard $(BUILD)/solutions/lab03),$(MAKE) --no-print-directory BUILD=$(BUILD)/nocdp-solutions BIN=$(BUILD)/nocdp-solutions/ NOCDP=1 SOLUTIONS=1 lab03)
	@sh tools/sanitize.sh $(GPU_LABS) $(SIDES)

profile: ## ncu with the lab's curated metrics: make profile LAB=lab04 [KERNEL=reduceUnrolling8]
	@if [ -z "$(LAB)" ]; then echo "make profile: say which lab, e.g. make profile LAB=lab04" >&2; exit 2; fi
	@$(MAKE) --no-print-directory $(LAB)
	@sh tools/profile.sh $(LAB) $(KERNEL)

snapshots: ## (GPU) rerun every command a chapter pastes and rewrite its block in place (outputs kept in build/snapshots/), the kept runs (docs/results/) and their charts
	@sh tools/snapshots.sh --apply $(BUILD)/snapshots

charts: ## every kept chart (docs/results/) redrawn from the runs it records, CPU only (tools/charts.sh)
	@sh tools/charts.sh
.PHONY: charts

results: $(LABS) ## run every lab, keep CSV and an SVG chart per lab under results/<gpu>/
	@sh tools/results.sh

.PHONY: bench
bench: lab05 lab06 ## (GPU) our speed bars on this GPU, each against its run's reference: table, docs/results/<gpu>/bench.csv and .svg
	@STRICT="$(strip $(STRICT))" sh tools/bench.sh

grade: ## grade the --csv outputs in RESULTS=dir, or build and run SOURCES=dir [FORMAT=csv] [SLURM=1]
	@CALIBRATION="$(CALIBRATION)" $(if $(SOURCES),SLURM=$(SLURM) sh tools/grader/grade_sources.sh "$(SOURCES)",sh tools/grader/grade "$(RESULTS)") \
	  $(if $(FORMAT),--format=$(FORMAT)); st=$$?; case $$st in \
	  1) echo "make grade: the grader's status is 1: graded; a point was lost or something flagged" >&2 ;; \
	  2) echo "make grade: the grader's status is 2: nothing graded (see the message above)" >&2 ;; \
	  esac; exit $$st

trace: ## one kernel's real accesses on the GPU: make trace LAB=lab02 KERNEL=NAME [N=64] [B=32] [SVG=f.svg]
	@if [ -z "$(LAB)" ] || [ -z "$(KERNEL)" ]; then echo "make trace: say which lab and kernel, e.g. make trace LAB=lab02 KERNEL=reduceNeighbored [N=64] [B=32]" >&2; exit 2; fi
	@NVCC="$(NVCC)" sh tools/trace/trace.sh --preflight
	@$(if $(filter lab03,$(LAB)),$(MAKE) --no-print-directory BUILD=$(BUILD)/nocdp BIN=$(BUILD)/nocdp/ NOCDP=1 lab03,$(MAKE) --no-print-directory $(LAB))
	@NVCC="$(NVCC)" sh tools/trace/trace.sh $(if $(filter lab03,$(LAB)),$(BUILD)/nocdp/lab03,./$(BIN)$(LAB)) "$(KERNEL)" "$(N)" "$(B)" $(if $(SVG),--svg "$(SVG)")
.PHONY: trace

slide-banks: lab06 ## lab06's slide, CPU only: build/slides/lab06-banks.txt, the tile's banks
	@mkdir -p $(BUILD)/slides
	@./$(BIN)lab06 --explain | sed -n '/^Part 3\./,$$p' >$(BUILD)/slides/lab06-banks.txt
	@grep -q 'way conflict' $(BUILD)/slides/lab06-banks.txt || { echo "make slide-banks: no bank table in ./lab06 --explain" >&2; exit 1; }
	@echo "$(BUILD)/slides/lab06-banks.txt"
.PHONY: slide-banks

handout: ## the students' copy, without solutions or answers: make handout DEST=dir
	@sh tools/handout.sh "$(DEST)"

handin: ## each built lab's --exercises --csv into handin/NAME-labNN.csv: make handin NAME=alice
	@sh tools/grader/handin.sh "$(NAME)" $(LABS)

submit: ## your exercise files as one archive, handin/NAME-sources.tar: make submit NAME=alice
	@sh tools/grader/handin.sh --sources "$(NAME)"
.PHONY: submit

clean: ## remove build/ and the lab binaries
	rm -rf $(BUILD) $(LABS) $(SIDES)

FORCE:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
