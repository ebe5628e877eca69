#!/bin/sh
# One file per architecture: every config/ARCH.config the harness knows
# gives each setting, and a new architecture is that one file: a copy of
# the harness with a made-up riscv64.config boots it with the QEMU, console
# and results channel the file names (a stand-in QEMU records its command).
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"

for ARCH in $(arch_list); do
	arch_load
	miss=
	for k in image console results clocksource elf; do
		eval "v=\$arch_$k"
		[ -n "$v" ] || miss="$miss $k"
	done
	[ -z "$arch_qemu" ] || [ -n "$arch_qemu_args$arch_packages" ] || miss="$miss qemu_args/packages"
	if [ -z "$miss" ]; then ok "arch-$ARCH-complete"; else notok "arch-$ARCH-complete" "no$miss"; fi
done

mkdir -p "$T/top" "$T/bin"
cp -R "$TOP/scripts" "$TOP/config" "$TOP/guest" "$T/top/"
cat >"$T/top/config/riscv64.config" <<'EOF'
#@ cross=riscv64-linux-gnu-
#@ image=arch/riscv/boot/Image
#@ packages='gcc-riscv64-linux-gnu qemu-system-misc'
#@ qemu=qemu-system-riscv64
#@ qemu_args='-M virt -cpu rv64'
#@ console=ttyS0
#@ results=virtio
#@ clocksource=riscv_clocksource
#@ append=
#@ qexit=
#@ debian_arch=
#@ elf='UCB RISC-V'
CONFIG_SMP=y
EOF
# The stand-ins: a compiler that makes empty programs, a QEMU that keeps
# its arguments.
cat >"$T/bin/riscv64-linux-gnu-gcc" <<'EOF'
#!/bin/sh
p=
for a; do [ "$p" = -o ] && : >"$a"; p=$a; done
exit 0
EOF
cat >"$T/bin/qemu-system-riscv64" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$T/qemu-args"
for a; do
	case \$a in
	*,path=*) printf 'SWAPQ-FACT cpus=2 clocksource=%s\nSWAPQ-DONE\n' "\$FAKE_CS" >"\${a#*,path=}" ;;
	esac
done
EOF
chmod +x "$T/bin/"*
: >"$T/Image"
newarch() {
	PATH=$T/bin:$PATH TOP=$T/top BUILD=$T/build ARCH=riscv64 FAKE_CS=$1 SELFTESTS= \
		"$T/top/scripts/kernel/boot.sh" "$T/Image" sanity arch-new >"$T/out" 2>&1
}
newarch riscv_clocksource
# The stand-in's guest reports no test case: the judge must fail it.
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'FAIL arch-new: no test results at all' "$T/out"; then
	ok arch-new-no-cases-fails
else
	notok arch-new-no-cases-fails "exit $rc: $(tail -n 2 "$T/out" | tr '\n' ' ')"
fi
args=$(tr '\n' ' ' <"$T/qemu-args" 2>/dev/null)
case $args in
*"-M virt -cpu rv64 "*"-device virtconsole,chardev=res "*"console=ttyS0 "*)
	ok arch-new-one-file ;;
*) notok arch-new-one-file "QEMU got: ${args:-nothing}; $(tail -n 2 "$T/out" | tr '\n' ' ')" ;;
esac
# The accelerator is in the results log and the judge's line: TCG, as
# the file names no host whose KVM runs riscv64.
if grep -qx '# SWAPQ-FACT accel=tcg' "$T/build/logs/arch-new.results.log" 2>/dev/null &&
	grep -q 'accel=tcg' "$T/out"; then
	ok arch-new-accel-recorded
else
	notok arch-new-accel-recorded "$(tail -n 2 "$T/out" | tr '\n' ' ')"
fi
# The guest is judged against the clocksource the file names.
if grep -q 'clocksource=riscv_clocksource' "$T/out" && ! grep -q 'clocksource is' "$T/out"; then
	ok arch-new-clocksource-accepted
else
	notok arch-new-clocksource-accepted "$(grep -i clocksource "$T/out" | head -n 2 | tr '\n' ' ')"
fi
newarch tsc
if grep -q 'clocksource is tsc, not riscv_clocksource' "$T/out"; then
	ok arch-new-clocksource-judged
else
	notok arch-new-clocksource-judged "$(tail -n 2 "$T/out" | tr '\n' ' ')"
fi
# The new file also puts the architecture in the cross builds and the
# other compilers' builds (cross.sh, compilers.sh), and not the host's.
others=$(TOP=$T/top sh -c '. "$TOP/scripts/lib.sh" && arch_others')
case " $others " in
*" riscv64 "*" x86_64 "* | *" x86_64 "*) notok arch-new-cross "x86_64 among: $others" ;;
*" riscv64 "*) ok arch-new-cross ;;
*) notok arch-new-cross "riscv64 not among: $others" ;;
esac
