#!/bin/sh
# KVM where it works, TCG where it does not: accel_pick (scripts/lib.sh)
# against a stand-in QEMU that boots under KVM, fails as this machine's
# KVM does (an MSR it cannot set), or hangs; KVM_DEV stands in for
# /dev/kvm.  A real probe runs in make check's test-kernel stage.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
mkdir -p "$T/bin"
cat >"$T/bin/qemu-system-x86_64" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
echo "\$*" >>"$T/qemu-calls"
res=
for a; do case \$a in file:*results.log) res=\${a#file:} ;; esac; done
case "\$*:\$FAKE_KVM" in
*"-accel kvm"*:fails) printf '%s\n' "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" \
	"qemu-system-x86_64: kvm.c:3183: kvm_buf_set_msrs: Assertion failed." Aborted >&2; exit 134 ;;
*"-accel kvm"*:hangs) sleep 30 ;;
esac
printf 'SWAPQ-FACT cpus=1\nSWAPQ-DONE\n' >"\$res"
EOF
chmod +x "$T/bin/qemu-system-x86_64"
: >"$T/kvm"
: >"$T/bzImage"
: >"$T/initrd"

# pick KVMBEHAVIOUR [VAR=VALUE...]: accel_pick in a shell of its own;
# prints "accel accel_arg accel_cpu | accel_why".
pick() {
	_b=$1
	shift
	env PATH="$T/bin:$PATH" SWAPQ_CACHE="$T/cache" BUILD="$T/build" KVM_DEV="$T/kvm" \
		FAKE_KVM="$_b" ARCH=x86_64 "$@" sh -c '. "$TOP/scripts/lib.sh"; arch_load
		accel_pick "$0" "$1" && echo "$accel $accel_arg $accel_cpu | $accel_why"' \
		"$T/bzImage" "$T/initrd" 2>"$T/err"
}
calls() { wc -l <"$T/qemu-calls" 2>/dev/null | tr -d ' ' || echo 0; }

got=$(pick boots)
case $got in
"kvm kvm host | a boot under KVM finished"*) ok accel-kvm-when-it-boots ;;
*) notok accel-kvm-when-it-boots "got '$got' $(cat "$T/err")" ;;
esac
if grep -q -- '-accel kvm .*-cpu host .*-smp 1 -m 3G .*swapq.tests= ' "$T/qemu-calls" 2>/dev/null; then
	ok accel-probe-boots-kvm-host
else
	notok accel-probe-boots-kvm-host "$(cat "$T/qemu-calls" 2>/dev/null)"
fi
n=$(calls)
got=$(pick fails)
if [ "$(calls)" = "$n" ] && case $got in "kvm "*) true ;; *) false ;; esac; then
	ok accel-verdict-cached
else
	notok accel-verdict-cached "probed again: '$got'"
fi

rm -rf "$T/cache"
got=$(pick fails)
case $got in
"tcg tcg,thread=multi max | a boot under KVM failed (QEMU status 134: "*"error: failed to set MSR 0x10a"*) ok accel-tcg-when-kvm-fails ;;
*) notok accel-tcg-when-kvm-fails "got '$got' $(cat "$T/err")" ;;
esac
if grep -q 'accelerator: tcg (a boot under KVM failed' "$T/err"; then
	ok accel-says-why
else
	notok accel-says-why "$(cat "$T/err")"
fi

got=$(pick hangs PROBE=1 PROBE_TIMEOUT=2)
case $got in
"tcg "*"did not finish in 2 s"*) ok accel-tcg-when-kvm-hangs ;;
*) notok accel-tcg-when-kvm-hangs "got '$got' $(cat "$T/err")" ;;
esac

n=$(calls)
got=$(pick boots KVM_DEV=/nonexistent/kvm)
case $got in
"tcg tcg,thread=multi max | there is no /nonexistent/kvm"*)
	if [ "$(calls)" = "$n" ]; then ok accel-no-kvm-no-probe; else notok accel-no-kvm-no-probe "QEMU was started"; fi ;;
*) notok accel-no-kvm-no-probe "got '$got'" ;;
esac
got=$(pick boots ARCH=arm64)
case $got in
"tcg "*"the guest is arm64, this host $(uname -m)"*) ok accel-other-arch-tcg ;;
*) notok accel-other-arch-tcg "got '$got' $(cat "$T/err")" ;;
esac

n=$(calls)
got=$(pick boots ACCEL=tcg)
if [ "$got" = "tcg tcg,thread=multi max | ACCEL=tcg" ] && [ "$(calls)" = "$n" ]; then
	ok accel-forced-tcg
else
	notok accel-forced-tcg "got '$got', QEMU calls $n -> $(calls)"
fi
got=$(pick boots ACCEL=tcg,thread=single)
expect_eq accel-qemu-value-kept "$got" "tcg tcg,thread=single max | ACCEL=tcg,thread=single"
got=$(pick boots ACCEL=kvm)
expect_eq accel-forced-kvm "$got" "kvm kvm host | ACCEL=kvm"
ACCEL=kvm KVM_DEV=/nonexistent/kvm expect_fail accel-forced-kvm-unusable 'ACCEL=kvm, but there is no /nonexistent/kvm' \
	sh -c '. "$TOP/scripts/lib.sh"; arch_load; accel_pick x y'
ACCEL=hvf expect_fail accel-bad-value 'ACCEL=hvf: not auto, kvm or tcg' \
	sh -c '. "$TOP/scripts/lib.sh"; arch_load; accel_pick x y'
