#!/bin/sh
# The KUnit suites run the way mm/tests/swap.kunitconfig tells a user to:
#   ./tools/testing/kunit/kunit.py run --kunitconfig=mm/tests/swap.kunitconfig
# in the work tree, on UML, whose config has no THP_SWAP (only order 0
# has cluster lists there) and no HIBERNATION.  One result line per case;
# a case skipped because it needs CONFIG_THP_SWAP or CONFIG_HIBERNATION is
# counted as a skip, any other skip fails.  The cases are read from
# kunit.py's --json, never from its log.  Ends with "N passed, N failed".
set -u
. "$(dirname "$0")/../lib.sh"
pass=0 fail=0
work_tree 2>/dev/null || die "no work tree"
work=$WORK
out=$BUILD/obj/um-kunit
log=$BUILD/logs/kunit-uml.log
mkdir -p "$out" "$BUILD/logs"
use_ccache
say "kunit.py run --kunitconfig=mm/tests/swap.kunitconfig (UML; log: $log)"
json=$BUILD/logs/kunit-uml.json
rm -f "$json"
(cd "$work" && python3 tools/testing/kunit/kunit.py run --kunitconfig=mm/tests/swap.kunitconfig \
	--build_dir="$out" --jobs="$(nproc)" --make_options "CC=ccache gcc" --json="$json") >"$log" 2>&1
rc=$?
# Each case's status from kunit.py's own JSON; a skip's reason, which the
# JSON leaves out, from the KTAP it kept (test.log), by our judge's parser.
python3 -c 'import json, sys
def walk(g, path):
    for c in g.get("test_cases", []):
        print(c["status"], ".".join(path + [c["name"]]))
    for s in g.get("sub_groups", []):
        walk(s, path + [s["name"]])
for s in json.load(open(sys.argv[1])).get("sub_groups", []):
    walk(s, [s["name"]])' "$json" >"$log.cases" 2>/dev/null
python3 "$TOP/scripts/results.py" ktap "$out/test.log" --src "$work" >"$log.ktap" 2>/dev/null
while read -r st name; do
	case $st in
	PASS) result "kunit-uml:$name" 0 ;;
	SKIP)
		why=$(grep -F "skip $name  # " "$log.ktap" | head -n1 | sed 's/.*  # //; s/^SKIP //')
		case $why in
		*"needs CONFIG_THP_SWAP"* | *"needs CONFIG_HIBERNATION"*) results_skip "kunit-uml:$name" "$why" ;;
		*) result "kunit-uml:$name" 1 "skipped: ${why:-no reason}" ;;
		esac ;;
	*) result "kunit-uml:$name" 1 "$st" ;;
	esac
done <"$log.cases"
[ -s "$log.cases" ]
result kunit-uml-cases $? "kunit.py wrote no case to $json (see $log)"
result kunit-uml-run $rc "kunit.py exited $rc (see $log)"
results_end
