# run/pelt-check.mk: build/pelt-check, the traces' loads against a PELT
# simulation.  Included by the Makefile (run/*.mk); also usable
# alone: make -f run/pelt-check.mk TOP=. BUILD=build pelt-check
TOP ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
BUILD ?= $(TOP)/build
PELT_CHECK_SOURCES = $(wildcard $(TOP)/run/pelt-check/*.c)

$(BUILD)/pelt-check: $(PELT_CHECK_SOURCES)
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -o $@ $(PELT_CHECK_SOURCES) -lm

.PHONY: pelt-check
pelt-check: $(BUILD)/pelt-check
