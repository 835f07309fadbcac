# Statistics, charts and report (run/stats, run/report, run/compare).
# Included by the top-level Makefile; also usable alone:
#   make -f run/stats.mk stats-tools | plots RESULTS=DIR
# (simply expanded: MAKEFILE_LIST changes with the include of common/common.mk)
TOP := $(or $(TOP),$(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..))
BUILD ?= $(TOP)/build
RESULTS ?= $(TOP)/results/latest
include $(TOP)/common/common.mk
include $(TOP)/run/contract/contract.mk

STATS_SOURCES := $(wildcard $(TOP)/run/pjt-stats/*.c)
STATS_HEADERS := $(wildcard $(TOP)/run/pjt-stats/*.h)

.PHONY: stats-tools plots

stats-tools: $(BUILD)/pjt-stats

$(BUILD)/pjt-stats: $(STATS_SOURCES) $(STATS_HEADERS) $(BUILD)/contract.h $(COMMON_DEPS)
	@mkdir -p $(BUILD)
	gcc -O2 -Wall -Wextra -I$(BUILD) $(COMMON_CFLAGS) -o $@ $(STATS_SOURCES) \
		$(OPTIONS_SOURCE) -lm

# Re-makes summary.csv, effects.csv, the charts and the report of RESULTS.
plots: stats-tools
	$(TOP)/run/report $(RESULTS)
