# common/common.mk: what a C tool needs from common/, the code the guest's
# workload generator and the host tools share (options.c, options.h: the
# option parser; splitmix64.h: the seeded generator; opts.c, units.c and
# their headers: pjtload's workload options and time units, which the
# host's matrix-plan parses with so that a plan never holds what the guest
# would refuse).  Included by
# run/matrix.mk, run/stats.mk, run/pelt-check.mk and initramfs/pjtload.mk;
# the tools name its headers bare (#include "options.h") through
# COMMON_CFLAGS' -I.  The versions --version prints come from the VERSION
# file, as run/lib/options.sh reads them.
COMMON_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
COMMON_VERSION_FILE := $(abspath $(COMMON_DIR)/../VERSION)
OPTIONS_SOURCE := $(COMMON_DIR)/options.c
# What a tool built with common/ depends on (VERSION: --version).
COMMON_DEPS := $(OPTIONS_SOURCE) $(COMMON_DIR)/options.h $(COMMON_DIR)/splitmix64.h \
	$(COMMON_VERSION_FILE)
COMMON_CFLAGS := -I$(COMMON_DIR) \
	-DPJT_VERSION='"$(shell sed -n 's/^pjt-sched: //p' $(COMMON_VERSION_FILE))"' \
	-DPJT_SERIES='"$(shell sed -n 's/^series: //p' $(COMMON_VERSION_FILE))"'
