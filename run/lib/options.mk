# run/lib/options.mk: what a C tool needs for the shared option parser
# (run/lib/options.c, options.h); included by run/matrix.mk, run/stats.mk,
# run/pelt-check.mk and initramfs/pjtload.mk.  The versions --version
# prints come from the VERSION file, as run/lib/options.sh reads them.
OPTIONS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
OPTIONS_VERSION_FILE := $(abspath $(OPTIONS_DIR)/../../VERSION)
OPTIONS_SOURCE := $(OPTIONS_DIR)/options.c
# What a tool built with the parser depends on (VERSION: --version).
OPTIONS_DEPS := $(OPTIONS_SOURCE) $(OPTIONS_DIR)/options.h $(OPTIONS_VERSION_FILE)
OPTIONS_CFLAGS := -I$(OPTIONS_DIR) \
	-DPJT_VERSION='"$(shell sed -n 's/^pjt-sched: //p' $(OPTIONS_VERSION_FILE))"' \
	-DPJT_SERIES='"$(shell sed -n 's/^series: //p' $(OPTIONS_VERSION_FILE))"'
