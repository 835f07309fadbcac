# run/pelt-check.mk: build/pelt-check, the traces' loads against a PELT
# simulation.  Included by the Makefile (run/*.mk); also usable
# alone: make -f run/pelt-check.mk TOP=. BUILD=build pelt-check
# (simply expanded: MAKEFILE_LIST changes with the include of common/common.mk)
TOP := $(or $(TOP),$(abspath $(dir $(lastword $(MAKEFILE_LIST)))..))
BUILD ?= $(TOP)/build
include $(TOP)/common/common.mk
PELT_CHECK_SOURCES = $(wildcard $(TOP)/run/pelt-check/*.c)

$(BUILD)/pelt-check: $(PELT_CHECK_SOURCES) $(COMMON_DEPS)
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra $(COMMON_CFLAGS) -o $@ $(PELT_CHECK_SOURCES) $(OPTIONS_SOURCE) -lm

.PHONY: pelt-check
pelt-check: $(BUILD)/pelt-check
