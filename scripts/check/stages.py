"""The stages of make check and make check-full, in the order they run.

Each stage is one entry: its name; what it checks; the command, run from
the top of the clone; the test kernels built before it (VARIANT-FLAVOR,
scripts/kernel/kernel.sh; the stage finds each image with lib.sh's
kernel_image); whether only check-full runs it; the seconds it took here
(QEMU TCG, 2 host cores), for the progress lines; the files it depends
on (inputs: CODE unless it tests the prose too).  A "first" stage runs
in every run, before the others, and a failure there ends the run.

A stage writes its results to $RESULTS (scripts/lib.sh) and passes only
when its command exits 0 and that file is complete; scripts/check/check.py
runs the table, sums the files and keeps each finished stage's results
under a key computed from the tree and config/params (RESUME=1).
"""
import fnmatch
from collections import namedtuple

STAGE = "scripts/check/stage.sh"
Stage = namedtuple("Stage", "name what command kernels full seconds first inputs")

# The files of the clone a stage's result depends on (git pathspecs), part
# of its resume key.  records/ never is (a record does not change what it
# records); the prose (docs/, README.md) only for the stages that test it.
CODE = (".", ":(exclude)records", ":(exclude)docs", ":(exclude)README.md")
ALL = (".", ":(exclude)records")


def in_inputs(path, inputs):
    """Whether the file path (relative to the top) is one of inputs, read
    as git reads these pathspecs (where git cannot: not a clone)."""
    def under(spec):
        if spec.startswith(":(exclude,glob)"):
            pat = spec[len(":(exclude,glob)"):]
            return fnmatch.fnmatch(path, pat) or fnmatch.fnmatch(path, pat.replace("**/", ""))
        spec = spec[len(":(exclude)"):] if spec.startswith(":(exclude)") else spec
        return spec == "." or path == spec or path.startswith(spec + "/")
    specs = [i for i in inputs if i != SOURCE]
    return (any(under(i) for i in specs if not i.startswith(":")) and
            not any(under(i) for i in specs if i.startswith(":")))


# Not a pathspec: the source the kernel stages build, the tree of each
# commit of the work tree (the base with prereqs/ and series/ applied) and
# its uncommitted changes, read once the first stages have applied the
# series.  A changelog or a cover letter is no part of it; a hunk moved
# from one patch to another is.
SOURCE = "@source"


def kernel_side(*scripts):
    """The inputs of a stage that builds and boots test kernels: the
    source the series makes (SOURCE, not the patches' text), the guest's
    side, the configs, what builds, boots and judges, and the stage's own
    scripts; the harness's tests, benchmarks and prose are not."""
    return (SOURCE, "config", "guest", "scripts/kernel", "scripts/lib.sh",
            "scripts/results.py", "scripts/check/check.py", STAGE) + scripts


def stage(name, what, command, kernels=(), full=False, seconds=60, first=False, inputs=CODE):
    if isinstance(command, str):
        command = command.split()
    return Stage(name, what, list(command), tuple(kernels), full, seconds, first, tuple(inputs))


DEBUG = ["patched-debug"]

STAGES = [
    stage("series", "the build dependencies, and prereqs/ and series/ applied to the base",
          STAGE + " series", seconds=60, first=True),
    stage("harness", "harness tests", "tests/run.sh", seconds=300, inputs=ALL),
    stage("gates", "series gates", "scripts/check/gates.sh", seconds=200),
    stage("kunit-uml", "KUnit as mm/tests/swap.kunitconfig documents it: kunit.py on UML (no THP_SWAP)",
          "scripts/check/kunit-uml.sh", seconds=400),
    stage("test-kernel", "the debug test kernel: its selftests config, the accelerator probe",
          STAGE + " test-kernel", DEBUG, seconds=60),
    stage("guest", "the debug kernel: KUnit, the kselftests of CHECK_TESTS",
          STAGE + " guest", DEBUG, seconds=1150),
    stage("runner", "the runner against real splats and a real hang",
          STAGE + " runner", DEBUG, seconds=300),
    stage("prefix", "bisectability: every prefix builds what it touches, W=1",
          "scripts/check/prefix-build.sh", seconds=600),
    stage("swap-n", "the series with CONFIG_SWAP=n: builds, its kselftests skip",
          STAGE + " swap-n", ["patched-noswap"], seconds=60),
    stage("guest-all", "the debug kernel, every kselftest case (run_vmtests.sh)",
          STAGE + " guest-all", DEBUG, full=True, seconds=970, inputs=kernel_side()),
    stage("guest-4cpu", "device selection with 4 vCPUs on 2 host cores (function, not timing)",
          STAGE + " guest-4cpu", DEBUG, full=True, seconds=760, inputs=kernel_side()),
    stage("user-machine", "the kselftests beside the machine's own swap, stopped half way and run again",
          STAGE + " user-machine", DEBUG, full=True, seconds=3600, inputs=kernel_side()),
    stage("errno", "swapon/swapoff errors on bad input: the base kernel side by side",
          STAGE + " errno", DEBUG + ["base-plain"], full=True, seconds=200, inputs=kernel_side()),
    stage("stress", "a bounded stress run on the debug kernel",
          STAGE + " stress", DEBUG, full=True, seconds=210, inputs=kernel_side()),
    stage("faultinj", "every allocation of swapon and swapoff failing in turn (fail-nth)",
          STAGE + " faultinj", DEBUG, full=True, seconds=60, inputs=kernel_side()),
    stage("mutations", "deliberate breakages must fail KUnit cases",
          "scripts/check/mutations.sh", full=True, seconds=2550,
          inputs=kernel_side("scripts/check/mutations.sh", "tests/mutations")),
    stage("harness-mutations", "deliberate breakages of the harness must turn its tests red",
          "scripts/check/harness-mutations.sh", full=True, seconds=210, inputs=ALL),
    stage("kcsan", "the KCSAN kernel: KUnit, every kselftest case through run_vmtests.sh -t swap",
          STAGE + " kcsan", ["patched-kcsan"], full=True, seconds=700, inputs=kernel_side()),
    stage("prefix-boot", "every prefix of the series boots and passes its tests",
          "scripts/check/prefix-boot.sh", full=True, seconds=5700,
          inputs=kernel_side("scripts/check/prefix-boot.sh")),
    stage("hibernate", "hibernation round trip, base and patched (image write timed)",
          "scripts/check/hibernate.sh", full=True, seconds=760,
          inputs=kernel_side("scripts/check/hibernate.sh", "scripts/bench/bench.py",
                             "scripts/bench/stats.py")),
    stage("cross", "i386 and arm64 (arm64 boots the KUnit suites and kselftests)",
          "scripts/check/cross.sh", full=True, seconds=1540,
          inputs=kernel_side("scripts/check/cross.sh")),
    stage("compilers", "sparse, clang, and gcc W=1 for arm64 and i386 on the touched files",
          "scripts/check/compilers.sh", full=True, seconds=180,
          inputs=kernel_side("scripts/check/compilers.sh")),
    stage("base-again", "the base commit is the same when derived again from scratch",
          STAGE + " base-again", full=True, seconds=100, inputs=kernel_side()),
]
