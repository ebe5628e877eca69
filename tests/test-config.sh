#!/bin/sh
# config-check.sh names every requested symbol that did not survive.
. "$(dirname "$0")/lib.sh"
C=$TOP/scripts/kernel/config-check.sh
mkdir -p "$T/src/mm"
printf 'config SWAP\n\tbool\nconfig ZRAM\n\ttristate\n' >"$T/src/mm/Kconfig"
printf 'CONFIG_SWAP=y\nCONFIG_ZRAM=m\n# CONFIG_KASAN is not set\n' >"$T/config"
printf 'CONFIG_SWAP=y\n# CONFIG_KASAN is not set\n' >"$T/good.config"
printf 'CONFIG_SWAP=y\nCONFIG_ZRAM=y\nCONFIG_MEMCG=y\n' >"$T/bad.config"
printf 'CONFIG_SWAP_KUNIT_TEST=y\n' >"$T/series.config"
if "$C" "$T/config" "$T/src" "$T/good.config" >/dev/null 2>&1; then ok config-good; else notok config-good "rejected"; fi
expect_fail config-missing 'CONFIG_MEMCG\(wanted y, got unset\) CONFIG_ZRAM\(wanted y, got m\)' "$C" "$T/config" "$T/src" "$T/bad.config"
printf 'CONFIG_KASAN=y\n' >>"$T/config"
expect_fail config-should-be-unset 'CONFIG_KASAN\(should be unset\)' "$C" "$T/config" "$T/src" "$T/good.config"
# The series' own symbols: not required where the tree lacks them ...
if "$C" "$T/config" "$T/src" "$T/series.config" >"$T/o" 2>&1 && grep -q 'not defined in this tree' "$T/o"; then
	ok config-series-symbol-absent
else
	notok config-series-symbol-absent "$(cat "$T/o")"
fi
# ... and required where it has them.
printf 'config SWAP_KUNIT_TEST\n\tbool\n' >>"$T/src/mm/Kconfig"
expect_fail config-series-symbol-required 'CONFIG_SWAP_KUNIT_TEST\(wanted y, got unset\)' "$C" "$T/config" "$T/src" "$T/series.config"
# A later fragment overrides an earlier one, as in merge_config.sh.
printf '# CONFIG_SWAP is not set\n' >"$T/noswap.config"
printf 'CONFIG_ZRAM=m\n' >"$T/noswap.dotconfig"
if "$C" "$T/noswap.dotconfig" "$T/src" "$T/good.config" "$T/noswap.config" >/dev/null 2>&1; then
	ok config-later-fragment-wins
else
	notok config-later-fragment-wins "rejected"
fi
