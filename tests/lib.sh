# Helpers for the harness's own tests (sourced).  Each test prints one
# "ok NAME" or "not ok NAME - why" line per check; tests/run.sh counts them.
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP
# The harness's tests run the same under make check, which exports the
# guest's and the run's parameters: each test sets what it needs.  The
# trees' paths go too: a test's BUILD must not lead it to the clone's own
# work tree (or a user's WORK).  CHECK_STAGES picks the stages of the
# run that runs us, not those of the stage driver's own tests.
unset WORK BASE_SRC SELFTESTS GUEST_TESTS RESUME PREFIXES MUTATIONS CROSS_ARCHES RESULTS RESULTS_PID STAGE_KEY STAGE_DONE RECORDS CHECK_STAGE CHECK_STAGES
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

ok() { echo "ok $1"; }
notok() { echo "not ok $1 - $2"; }

# expect_eq NAME GOT WANT: ok when GOT is WANT.
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1" "got '$2', want '$3'"; fi
}

# expect_fail NAME PATTERN CMD...: CMD must exit non-zero and print PATTERN
# (a grep -E pattern) on stdout or stderr, in one line.
expect_fail() {
	_n=$1 _p=$2
	shift 2
	if "$@" >"$T/out" 2>&1; then
		notok "$_n" "succeeded, expected a failure"
	elif grep -Eq -- "$_p" "$T/out"; then
		ok "$_n"
	else
		notok "$_n" "no '$_p' in: $(tail -n 3 "$T/out" | tr '\n' ' ')"
	fi
}

# synthetic_base DIR: a deterministic base commit of
# tests/fixture/synthetic/base's files in a new repository DIR (no
# download); prints its commit.
synthetic_base() {
	mkdir -p "$1" && cp -r "$TOP/tests/fixture/synthetic/base/." "$1/" &&
		pgit -C "$1" init -q && pgit -C "$1" add -A . &&
		GIT_AUTHOR_DATE="2026-01-01T00:00:00+0000" GIT_COMMITTER_DATE="2026-01-01T00:00:00+0000" \
		pgit -C "$1" commit -q --no-gpg-sign --no-verify -m "synthetic base" &&
		git -C "$1" rev-parse HEAD
}

# bindir DIR EXCEPT...: DIR holds a link to every program of this
# machine's PATH but those named (a PATH as another machine has it).
bindir() {
	_d=$1
	shift
	mkdir -p "$_d"
	for _p in $(printf '%s\n' "$PATH" | tr : ' '); do
		for _f in "$_p"/*; do
			_n=${_f##*/}
			[ -x "$_f" ] && [ ! -e "$_d/$_n" ] || continue
			case " $* " in *" $_n "*) continue ;; esac
			ln -s "$_f" "$_d/$_n"
		done
	done
}
