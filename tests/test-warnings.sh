#!/bin/sh
# warnings_at (scripts/lib.sh), the "no warning the base lacks" gates'
# common step, on a synthetic tree whose make prints what it is told: line
# numbers go, the list is sorted, and a checker that did not run fails.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
log=$T/make.log
mkdir -p "$T/src"
printf 'olddefconfig:\n\t@true\n%%.o:\n\t@cat msg.txt >&2\n' >"$T/src/Makefile"
: >"$T/src/foo.c"
: >"$T/cfg"
git -C "$T/src" init -q && git -C "$T/src" add . &&
	git -C "$T/src" -c user.name=t -c user.email=t@t commit -qm t
say_msg() { printf '%s\n' "$@" >"$T/src/msg.txt"; }

say_msg 'foo.c:9:2: warning: b' 'foo.c:3:1: warning: a' 'note: not counted'
expect_eq warnings-sorted-no-lines \
	"$(warnings_at "$T/src" "$T/obj" "$T/cfg" HEAD foo.o | tr '\n' ';')" \
	"foo.c: warning: a;foo.c: warning: b;"
say_msg 'sparse: is not available or not up to date'
expect_fail warnings-checker-did-not-run 'the checker did not run' \
	warnings_at "$T/src" "$T/obj" "$T/cfg" HEAD foo.o
expect_fail warnings-no-config 'no .*nocfg: build that test kernel first' \
	warnings_at "$T/src" "$T/obj" "$T/nocfg" HEAD foo.o
