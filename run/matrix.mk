# run/matrix.mk: the matrix runner's host tool (included by the Makefile;
# also usable alone: make -f run/matrix.mk TOP=. BUILD=build matrix-tools).
#
# build/matrix-plan reads rt-app files with json-c (libjson-c-dev) and
# validates workload options with the workload
# generator's own parser (common/opts.c, units.c), built here
# for the host, and reads the bits, columns and tunables of run/contract
# through the generated build/contract.h.
# (simply expanded: MAKEFILE_LIST changes with the include of common/common.mk)
TOP := $(or $(TOP),$(abspath $(dir $(lastword $(MAKEFILE_LIST)))..))
BUILD ?= $(TOP)/build
include $(TOP)/common/common.mk
MATRIX_PLAN_CFLAGS = -D_GNU_SOURCE -Wall -Wextra -O2 -I$(BUILD) \
	$(COMMON_CFLAGS)
# rt-app files are read with json-c, the parser rt-app itself uses
# (libjson-c-dev, in the Makefile's PACKAGES).
MATRIX_PLAN_LIBS = $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
# run/matrix-plan/: one .c file a job, matrix-plan.h between them.
MATRIX_PLAN_SOURCES = $(wildcard $(TOP)/run/matrix-plan/*.c) \
	$(COMMON_DIR)/opts.c $(COMMON_DIR)/units.c $(OPTIONS_SOURCE)
include $(TOP)/run/contract/contract.mk

$(BUILD)/matrix-plan: $(MATRIX_PLAN_SOURCES) $(TOP)/run/matrix-plan/matrix-plan.h $(BUILD)/contract.h \
		$(COMMON_DIR)/opts.h $(COMMON_DIR)/units.h \
		$(COMMON_DEPS)
	@mkdir -p $(BUILD)
	$(CC) $(MATRIX_PLAN_CFLAGS) -o $@ $(MATRIX_PLAN_SOURCES) $(MATRIX_PLAN_LIBS)

.PHONY: matrix-tools
matrix-tools: $(BUILD)/matrix-plan $(BUILD)/contract.h ## build/matrix-plan, the matrix planner
