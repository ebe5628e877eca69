# Front door of the swap series workshop.  `make help` lists the targets.
SHELL := /bin/sh
TOP := $(CURDIR)
BUILD ?= $(TOP)/build
VARIANT ?= patched
DEBUG ?=
KCSAN ?=
FLAVOR ?=
# The flavour said (FLAVOR=, DEBUG=1, KCSAN=1), or else: make kernel builds
# plain, and make boot boots the one make kernel built last.
SAID_FLAVOR = $(or $(FLAVOR),$(if $(KCSAN),kcsan,$(if $(DEBUG),debug,)))
LAST_FLAVOR = $(shell cat $(BUILD)/last-flavor-$(VARIANT)-$(ARCH) 2>/dev/null)
KERNEL_FLAVOR = $(or $(SAID_FLAVOR),plain)
BOOT_FLAVOR = $(or $(SAID_FLAVOR),$(LAST_FLAVOR),plain)
# The defaults are scripts/lib.sh's SERIES_TESTS and SERIES_SELFTESTS, as
# the shell reads them (so that no quoting there can empty them here).
lib_value = $(shell TOP='$(CURDIR)' sh -c '. scripts/lib.sh && printf %s "$$$(1)"')
TESTS ?= $(call lib_value,SERIES_TESTS)
SELFTESTS ?= $(call lib_value,SERIES_SELFTESTS)
# The architecture config/ builds natively (lib.sh arch_native).
ARCH ?= $(shell TOP='$(CURDIR)' sh -c '. scripts/lib.sh && arch_native')
export BUILD VARIANT FLAVOR KERNEL_SRC KERNEL_REF SWAPQ_CACHE SELFTESTS ARCH

.PHONY: help deps base worktree export kernel boot check check-full record-stages bench bench-swapoff \
	bench-alloc bench-lockstat bench-mthp bench-prio bench-cover mbox clean

help:
	@echo "Swap series workshop: the series in series/, the harness around it."
	@echo
	@echo "  make check         harness tests, series gates, kunit.py on UML, debug"
	@echo "                     kernel under QEMU (KUnit + kselftests); ends with"
	@echo "                     'N passed, N failed'"
	@echo "  make check-full    check + every kselftest case (run_vmtests.sh, 2 and"
	@echo "                     4 vCPUs), base errnos, KUnit and harness mutations,"
	@echo "                     every prefix of the series booted, stress, arm64/i386,"
	@echo "                     sparse/clang, base re-derivation, KCSAN, fault injection"
	@echo "                     (faultinj), hibernation round trip base/patched"
	@echo "  make record-stages the stages this tree's run finished -> records/,"
	@echo "                     to commit (a later RESUME=1 run, anywhere, skips them)"
	@echo "  make bench         base and patched kernels side by side; tables + CSV:"
	@echo "                     bench-swapoff, bench-alloc (with a prefix of the"
	@echo "                     series, STEPS), bench-lockstat, bench-mthp"
	@echo "                     (64 KiB mTHP swpout / swpout_fallback), bench-prio"
	@echo "                     (priority inversion after a device has room again);"
	@echo "                     make bench-swapoff PROFILE=1: swapoff's parts traced"
	@echo "  make bench-cover   every run the cover letters quote, with their settings"
	@echo "                     (PARTS=...), reports in build/bench/cover/"
	@echo "  make worktree      work tree = base + prereqs/* + series/*/*  ($(BUILD)/work)"
	@echo "  make export        work tree commits -> series/ (cover text kept)"
	@echo "  make mbox          the messages to post, from your git identity, To/Cc"
	@echo "                     from get_maintainer.pl; proven by git am and a"
	@echo "                     git send-email --dry-run"
	@echo "  make kernel        build VARIANT=base|patched [DEBUG=1|KCSAN=1] [ARCH=arm64|i386"
	@echo "                     or any architecture config/ARCH.config describes];"
	@echo "                     prints the image path"
	@echo "  make boot          boot the flavour make kernel built last (or the one"
	@echo "                     said: DEBUG=1, KCSAN=1, FLAVOR=) and run TESTS=a,b"
	@echo "                     (default $(TESTS)); ARCH=arm64 boots QEMU's virt machine"
	@echo "  make base          fetch and commit the base tree; prints REPO COMMIT"
	@echo "  make deps          check the tools the harness needs; install what is"
	@echo "                     missing with apt-get (root) where apt exists, else"
	@echo "                     name the tools and Debian's packages for them"
	@echo "  make clean         remove $(BUILD) (the cache outside the clone stays)"
	@echo "  make help          this list"
	@echo
	@echo "Values:"
	@echo "  BUILD=$(BUILD)"
	@echo "  SWAPQ_CACHE=$${SWAPQ_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/swapq}"
	@echo "  KERNEL_SRC=$(KERNEL_SRC)  KERNEL_REF=$(KERNEL_REF)  (empty: Debian 7.3.4,"
	@echo "             DEB_VERSION= with DEB_SHA256= for another package version)"
	@echo "  VARIANT=$(VARIANT) ARCH=$(ARCH) FLAVOR: make kernel $(KERNEL_FLAVOR), make boot $(BOOT_FLAVOR)"
	@echo
	@echo "Parameters (environment or make VAR=...), defaults in ():"
	@echo "  guest      SMP (2) MEM (3G; bench-swapoff 6G) TIMEOUT (a hang guard from the"
	@echo "             tests and the kernel: 600 s for sanity; for kselftests"
	@echo "             $$(($${GUEST_TIMEOUT:-5400} / 3)) s on a plain kernel, $${GUEST_TIMEOUT:-5400} s on a debug one)"
	@echo "             ACCEL (auto: KVM where a probe boot under it finishes within"
	@echo "             PROBE_TIMEOUT, 60 s, else TCG; kvm or tcg forces either; the"
	@echo "             verdict is kept in SWAPQ_CACHE/accel, PROBE=1 probes again)"
	@echo "             TESTS ($(TESTS)) SELFTESTS ($(SELFTESTS)) JOBS (nproc)"
	@echo "  check      GUEST_TESTS GUEST_TIMEOUT (5400 s) HARNESS_TESTS; the stages:"
	@echo "             scripts/check/stages.py; every parameter: config/params"
	@echo "             RESUME=1 (skip the stages this tree's runs finished, here or"
	@echo "             in records/check/; RECORDS= another directory)"
	@echo "             CHECK_STAGES=a,b (only those stages of the run)"
	@echo "             PREFIXES (all) FULL_PREFIXES MUTATIONS (all) STRESS_TIMEOUT FAULTINJ_TIMEOUT"
	@echo "             CROSS_ARCHES (all but x86_64) CROSS_TESTS CROSS_TIMEOUT"
	@echo "  worktree   FORCE=1 (drop work tree commits not exported, or a cover edit)"
	@echo "  benchmarks REPS FRESH=1 BENCH_TIMEOUT; bench-swapoff: FILLS_MB KEEP_MB"
	@echo "             DISK_MB ORD_MB ORD_DISK_MB PROFILE=1; bench-alloc and"
	@echo "             bench-lockstat: DEVS DISK_MB LIMIT_MB WORKERS WORKER_MB"
	@echo "             (bench-lockstat: NDEVS, 1 4 16); bench-alloc: STEPS (the"
	@echo "             patch numbers of prefixes measured too; default the one"
	@echo "             that removes the swap_avail_head plist); bench-alloc and"
	@echo "             bench-swapoff: ICOUNT=1 (guest time counts instructions);"
	@echo "             bench-swapoff: TAG= (a name for the run's files),"
	@echo "             PREREQ=0 (no base+prerequisites kernel), APPEND= (the"
	@echo "             guests' extra command line, say rcupdate.rcu_expedited=1);"
	@echo "             hibernate.sh: HIBERNATE_MB DISK_MB"

deps:
	@scripts/kernel/deps.sh

base: deps
	@scripts/kernel/base.sh

worktree: deps
	@scripts/kernel/tree.sh work

export:
	@scripts/kernel/tree.sh export

kernel: deps
	@TOP=$(CURDIR) && . scripts/lib.sh && build_kernel $(VARIANT) $(KERNEL_FLAVOR) && \
	  echo $(KERNEL_FLAVOR) >$(BUILD)/last-flavor-$(VARIANT)-$(ARCH)

boot: deps
	@TOP=$(CURDIR) && . scripts/lib.sh && build_kernel $(VARIANT) $(BOOT_FLAVOR) && \
	  SRC=$$WORK scripts/kernel/boot.sh "$$built_image" "$(TESTS)" boot-$(VARIANT)-$(BOOT_FLAVOR)

check:
	@python3 scripts/check/check.py

check-full:
	@python3 scripts/check/check.py --full

record-stages:
	@python3 scripts/check/check.py --record --full

bench: bench-swapoff bench-alloc bench-lockstat bench-mthp bench-prio

bench-swapoff:
	@scripts/bench/bench-swapoff.sh

bench-alloc:
	@scripts/bench/bench-alloc.sh

bench-lockstat:
	@scripts/bench/bench-lockstat.sh

bench-mthp:
	@scripts/bench/bench-mthp.sh

bench-prio:
	@scripts/bench/bench-prio.sh

bench-cover:
	@scripts/bench/cover.sh

mbox:
	@scripts/post/mbox.sh

clean:
	rm -rf $(BUILD)
