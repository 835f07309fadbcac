# pjtload, the workload generator (included by the top-level Makefile;
# also usable alone: make -f initramfs/pjtload.mk pjtload).
# (simply expanded: MAKEFILE_LIST changes with the include of common/common.mk)
TOP := $(or $(TOP),$(abspath $(dir $(lastword $(MAKEFILE_LIST)))..))
BUILD ?= $(TOP)/build
include $(TOP)/common/common.mk

PJTLOAD_DIR := $(TOP)/initramfs/pjtload
PJTLOAD_OBJ := $(BUILD)/pjtload-obj
PJTLOAD_CC ?= gcc
PJTLOAD_CFLAGS := -D_GNU_SOURCE -O2 -Wall -Wextra -pthread -MMD -MP -I$(COMMON_DIR)
# The pure parts, unit-tested on the host by run/tests/test-pjtload.sh: the
# workload options and time units (common/, which the host's matrix-plan
# builds too; objects named common-*.o) and the histogram and rate.
PJTLOAD_PURE_OBJS := $(PJTLOAD_OBJ)/common-units.o $(PJTLOAD_OBJ)/common-opts.o \
	$(PJTLOAD_OBJ)/hist.o $(PJTLOAD_OBJ)/rate.o
PJTLOAD_UNITS := record taskstat output duty pingpong forkmode main
# The command line (-h, --version, the error format): the C tools' parser
# (common/options.c).
PJTLOAD_OBJS := $(PJTLOAD_PURE_OBJS) $(PJTLOAD_UNITS:%=$(PJTLOAD_OBJ)/%.o) \
	$(PJTLOAD_OBJ)/common-options.o

.PHONY: pjtload pjtload-host-tools
pjtload: $(BUILD)/pjtload
# The unit-test driver and the bare-loop benchmark, host builds.
pjtload-host-tools: $(BUILD)/pjtload-test $(BUILD)/pjtload-bare

$(BUILD)/pjtload: $(PJTLOAD_OBJS)
	$(PJTLOAD_CC) $(PJTLOAD_CFLAGS) -static -o $@ $^ -lm

$(BUILD)/pjtload-test: $(PJTLOAD_OBJ)/test_driver.o $(PJTLOAD_PURE_OBJS)
	$(PJTLOAD_CC) $(PJTLOAD_CFLAGS) -o $@ $^ -lm

$(BUILD)/pjtload-bare: $(PJTLOAD_OBJ)/bare_bench.o $(PJTLOAD_OBJ)/record.o $(PJTLOAD_OBJ)/common-units.o
	$(PJTLOAD_CC) $(PJTLOAD_CFLAGS) -o $@ $^ -lm

$(PJTLOAD_OBJ)/%.o: $(PJTLOAD_DIR)/%.c | $(PJTLOAD_OBJ)
	$(PJTLOAD_CC) $(PJTLOAD_CFLAGS) -c -o $@ $<

# From common/ (a build dir of before the move keeps units.o and its .d,
# which nothing needs now).
$(PJTLOAD_OBJ)/common-%.o: $(COMMON_DIR)/%.c | $(PJTLOAD_OBJ)
	$(PJTLOAD_CC) $(PJTLOAD_CFLAGS) -c -o $@ $<

$(PJTLOAD_OBJ)/common-options.o: $(COMMON_DEPS) | $(PJTLOAD_OBJ)
	$(PJTLOAD_CC) $(PJTLOAD_CFLAGS) $(COMMON_CFLAGS) -c -o $@ $(OPTIONS_SOURCE)

$(PJTLOAD_OBJ):
	mkdir -p $@

-include $(wildcard $(PJTLOAD_OBJ)/*.d)
