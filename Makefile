# pjt-sched: the RFC's per-entity-load-tracking balancer, bit by bit, on 6.1.
# `make run` is the main job, `make check` runs every test.  See README.md.

TOP := $(CURDIR)
BUILD := $(TOP)/build
MATRIX ?= feat-matrix/quick.matrix

# Debian packages the project needs (tools copied into the guest included;
# python3-ply only for the SPDX check of the kernel's checkpatch.pl; parallel
# for run/distribute; stress-ng for a guest suite; ccache for the kernel
# builds; sparse for the per-patch checks; libjson-c-dev for matrix-plan,
# which reads rt-app files with rt-app's own JSON parser).  No Recommends:
# qemu's pull in a desktop.  Nothing here is a service: what the tests
# alone need (an sshd, chromium) comes from check-deps.
PACKAGES := linux-source-6.1 gcc make libelf-dev flex bison bc libssl-dev \
	cpio qemu-system-x86 busybox-static gnuplot-nox rt-tests rt-app \
	linux-perf file python3-ply parallel rsync openssh-client stress-ng ccache \
	sparse libjson-c-dev

# The other configurations users run (patches/qemu-VARIANT.config).
VARIANTS := $(patsubst patches/qemu-%.config,%,$(wildcard patches/qemu-*.config))

.PHONY: help all deps check-deps kernel kernel-stock kernel-variants kernel-target initramfs initramfs-perf initramfs-box shell run check flake-rate \
	check-series bench-overhead bench-icount clean

# make help: a line per target, the "## " text of its rule line (here and
# in the included run/*.mk and initramfs/*.mk).  The first rule, so plain
# `make` still builds: all comes next and is named by .DEFAULT_GOAL.
.DEFAULT_GOAL := all
help: ## this list
	@echo "usage: make [TARGET] [MATRIX=FILE] [TOPOLOGY=S,C,T] [ROUNDS=N LOAD=none|one-core]"
	@echo "targets (make with none: all):"
	@awk -F ':.*## ' '/^[a-z][a-z0-9_-]*:.*## / { printf "  %-16s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo "MATRIX (make run) is $(MATRIX); TOPOLOGY (make shell) $(TOPOLOGY); ROUNDS and LOAD (make flake-rate) $(ROUNDS), $(LOAD)."
	@echo "See README.md; the matrix directives: docs/matrix.md."

all: kernel initramfs ## the patched kernel and the guest image

# apt-get update only when something is missing; as non-root, say what to run.
deps: ## install the Debian packages the project needs (PACKAGES; as root)
	@missing=$$(for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then echo "deps: all $(words $(PACKAGES)) packages present"; exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "deps: missing packages; run as root:"; \
		echo "  apt-get update && apt-get install -y $$missing"; exit 1; fi; \
	echo "deps: installing $$missing"; \
	apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing

# Debian's sshd and kexec for run/tests/test-distribute-ssh.sh and the QEMU
# box of run/tests/test-target.sh, unpacked into build/sshd-root, not
# installed (the packages enable and start ssh.service and kexec's units);
# Debian's chromium for run/tests/test-report-browser.sh, installed when no
# package it brings ships a service (run/check-deps --help).
check-deps: ## unpack Debian's sshd and kexec, install chromium for the tests (run/check-deps)
	@run/check-deps

include $(wildcard initramfs/*.mk run/*.mk)
# The included files' main targets, for make help (their rules are there).
pjtload: ## build/pjtload, the guest's workload generator (host build)
stats-tools: ## build/pjt-stats: statistics, charts and the report
plots: ## re-make the statistics, charts and report of RESULTS=DIR (results/latest)
pelt-check: ## build/pelt-check: the traces' loads against a PELT simulation

# run/kernel decides itself what is out of date (series stamp, incremental
# kbuild), so these always ask it.
kernel: ## build/bzImage: the series on Linux 6.1 (run/kernel patched)
	@run/kernel patched

kernel-stock: ## build/bzImage-stock: Linux 6.1 without the series
	@run/kernel stock

kernel-variants: ## build/bzImage-V for each patches/qemu-V.config
	@for v in $(VARIANTS); do run/kernel variant $$v || exit 1; done

# A real machine's kernel (docs/target.md): its configuration (CONFIG=FILE,
# e.g. its /boot/config-*) with patches/target.config merged over it;
# LSMOD=FILE (its lsmod) builds its loaded modules in.
kernel-target: ## build/bzImage-target: the series on CONFIG=FILE (a target's configuration)
	@run/kernel-target --config '$(CONFIG)' $(if $(LSMOD),--lsmod '$(LSMOD)')

$(BUILD)/bzImage:
	@run/kernel patched

$(BUILD)/bzImage-stock:
	@run/kernel stock

INITRAMFS_INPUTS := initramfs/init initramfs/build-image initramfs/tools.list \
	$(wildcard initramfs/lib/* initramfs/tests/*.sh feat-matrix/*.json)

$(BUILD)/initramfs.cpio.gz: $(INITRAMFS_INPUTS) $(BUILD)/pjtload
	@initramfs/build-image $@

initramfs: $(BUILD)/initramfs.cpio.gz ## build/initramfs.cpio.gz: the guest image

# The same image with perf (20 MB gzip'd beside 12): run/matrix builds
# and boots it for a matrix with perf bench workloads.
$(BUILD)/initramfs-perf.cpio.gz: $(INITRAMFS_INPUTS) $(BUILD)/pjtload
	@PERF=1 initramfs/build-image $@

initramfs-perf: $(BUILD)/initramfs-perf.cpio.gz ## the guest image with perf (perf bench workloads)

# The QEMU box's image (run/tests/test-target.sh): the guest image plus
# Debian's sshd and kexec, unpacked by check-deps.
$(BUILD)/initramfs-box.cpio.gz: $(BUILD)/initramfs.cpio.gz initramfs/build-box-image \
		$(BUILD)/sshd-root/usr/sbin/sshd $(BUILD)/sshd-root/sbin/kexec
	@initramfs/build-box-image $@

initramfs-box: $(BUILD)/initramfs-box.cpio.gz ## the QEMU box's image (run/tests/test-target.sh)

# The kernel as the tree now describes it (run/kernel rebuilds an edited
# patch), on the RFC box's shape unless TOPOLOGY=S,C,T says otherwise.
TOPOLOGY ?= 2,2,1
shell: kernel initramfs ## boot the patched kernel with a shell (TOPOLOGY=S,C,T)
	run/boot --interactive --topology $(TOPOLOGY)

# Each phase timed (run/phase); the summary also goes to the results folder.
# TARGET=ssh://[USER@]HOST[:PORT]: the matrix on that machine instead of in
# QEMU, booted by kexec into TARGET_KERNEL (default build/bzImage-target):
# docs/target.md.
# Then the one-line answer, only when every phase passed: after a failure
# results/latest is an older run's folder.
run: ## the main job: build, run MATRIX (quick.matrix), report, one-line answer
	@export PJT_PHASE_LOG=$(BUILD)/phases.$$$$; mkdir -p $(BUILD); : > $$PJT_PHASE_LOG; \
	run/phase deps $(MAKE) --no-print-directory deps && \
	run/phase unpack run/kernel unpack && \
	$(if $(TARGET),,run/phase kernel run/kernel patched &&) \
	run/phase image $(MAKE) --no-print-directory initramfs matrix-tools stats-tools pelt-check && \
	run/phase matrix run/matrix --no-report $(if $(TARGET),--target '$(TARGET)' $(if $(TARGET_KERNEL),--target-kernel '$(TARGET_KERNEL)')) $(MATRIX) && \
	run/phase report run/report results/latest; \
	status=$$?; run/phase --summary results/latest; \
	[ $$status != 0 ] || run/phase --answer results/latest; rm -f $$PJT_PHASE_LOG; exit $$status

# Timed like make run: the kernels (stock and the variants rebuild only what
# differs from the patched tree), the image and tools, then every suite.
check: ## every test suite: kernels, image, run/check (boots QEMU; long)
	@export PJT_PHASE_LOG=$(BUILD)/phases.$$$$; mkdir -p $(BUILD); : > $$PJT_PHASE_LOG; \
	rm -f $(BUILD)/check/result; \
	run/phase deps $(MAKE) --no-print-directory deps check-deps && \
	run/phase kernels $(MAKE) --no-print-directory kernel kernel-stock kernel-variants && \
	run/phase image $(MAKE) --no-print-directory initramfs matrix-tools stats-tools pelt-check && \
	run/phase tests run/check; \
	status=$$?; run/phase --summary; rm -f $$PJT_PHASE_LOG; \
	if [ -s $(BUILD)/check/result ] && [ $$status -le 1 ]; then cat $(BUILD)/check/result; \
	else echo "0 passed, 1 failed"; fi; exit $$status

# How often make check's suites that boot QEMU pass on this tree: ROUNDS
# rounds of run/check --only guest --only host-qemu, LOAD=one-core with one
# host core kept busy (stress-ng); results in build/flake-rate/LOAD-TIME/.
ROUNDS ?= 10
LOAD ?= none
flake-rate: ## how often make check's QEMU suites pass (ROUNDS=N LOAD=none|one-core)
	@$(MAKE) --no-print-directory deps kernel kernel-stock kernel-variants initramfs matrix-tools stats-tools pelt-check && \
	run/flake-rate --rounds $(ROUNDS) --load $(LOAD)

# Build the tree after each patch in turn, then checkpatch every patch.
check-series: ## build the tree after each patch, checkpatch every patch
	@run/check --only series

bench-overhead: $(BUILD)/bzImage $(BUILD)/bzImage-stock $(BUILD)/initramfs.cpio.gz ## what the series costs when off, in wall time
	run/bench-overhead

# The cost when off in instructions per operation, one vCPU under icount
# (see docs/results.md, "What the series costs when off").
bench-icount: $(BUILD)/bzImage $(BUILD)/bzImage-stock $(BUILD)/initramfs-perf.cpio.gz ## what the series costs when off, in instructions (icount)
	run/bench-icount

clean: ## remove the kernels, their objects and the image (not build/src)
	rm -rf $(BUILD)/obj $(BUILD)/bzImage $(BUILD)/bzImage-stock \
		$(addprefix $(BUILD)/bzImage-,$(VARIANTS)) $(BUILD)/initramfs.cpio.gz
