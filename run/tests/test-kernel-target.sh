#!/bin/sh
# run/tests/test-kernel-target.sh: make kernel-target (run/kernel-target) on
# reduced configurations in the manner of a distribution's: 6.1's
# tinyconfig (the smallest that builds) with what a Debian configuration
# has that the merge must deal with written over it.
#   - merge only: a trusted-keys file of the distribution's packaging
#     emptied, a module the target has loaded (--lsmod) built in, the
#     report naming what changed, files kept beside the kernel; options
#     a configuration without /proc cannot take named by file and line
#   - a build (one make job unless JOBS=N: run/check may run a guest
#     beside it): the report, every option of patches/target.config in
#     the configuration, and "-pjt-sched" in the kernel's version string
#   - usage errors: no --config, a line that is no configuration, a
#     --lsmod file that is not lsmod's output
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/run/tests/fixtures/tap.sh"
tap_begin test-kernel-target
tool=$top/run/kernel-target
src=$top/build/src

"$top/run/kernel" patched >"$tmp/patched.log" 2>&1 ||
	{ sed 's/^/# /' "$tmp/patched.log" | tail -n 5; echo "not ok 1 - run/kernel patched failed"; exit 1; }
# base NAME [scripts/config ARGS...]: tinyconfig with ARGS applied, as
# $tmp/NAME.config.  Proc and sysfs, which every distribution has and
# SCHEDSTATS and SCHED_DEBUG depend on, unless the ARGS disable them.
mkdir -p "$tmp/obj"
make -s -C "$src" O="$tmp/obj" tinyconfig >/dev/null 2>&1 && cp "$tmp/obj/.config" "$tmp/tiny.config"
base() {
	name=$1; shift
	cp "$tmp/tiny.config" "$tmp/obj/.config" &&
	"$src/scripts/config" --file "$tmp/obj/.config" --enable PROC_FS --enable SYSFS "$@" &&
	make -s -C "$src" O="$tmp/obj" olddefconfig >/dev/null 2>&1 &&
	cp "$tmp/obj/.config" "$tmp/$name.config"
}

echo "# ---- the merge alone (--config-only)"
base keys --enable SMP --enable MODULES --enable NET --enable INET --enable PCI --enable NETDEVICES --enable ETHERNET \
	--enable NET_VENDOR_INTEL --module E1000 --enable KEYS --enable CRYPTO --enable ASYMMETRIC_KEY_TYPE \
	--enable ASYMMETRIC_PUBLIC_KEY_SUBTYPE --enable X509_CERTIFICATE_PARSER --enable PKCS7_MESSAGE_PARSER \
	--enable SYSTEM_TRUSTED_KEYRING --set-str SYSTEM_TRUSTED_KEYS debian/certs/debian-uefi-certs.pem
check "the fixture: tinyconfig with e1000 a module and Debian's trusted-keys file" \
	sh -c "grep -qx 'CONFIG_E1000=m' '$tmp/keys.config' && grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS=\"debian/certs/debian-uefi-certs.pem\"' '$tmp/keys.config'"
printf 'Module                  Size  Used by\ne1000                 163840  0\n' > "$tmp/lsmod"
"$tool" --config "$tmp/keys.config" --lsmod "$tmp/lsmod" --out "$tmp/k/bzImage" --config-only >"$tmp/k.out" 2>"$tmp/k.err"
rc=$?
sed 's/^/# /' "$tmp/k.err" | tail -n 4
check "--config-only: exit 0, nothing built, the configuration and the changes kept beside OUT" \
	sh -c "[ $rc = 0 ] && [ ! -e '$tmp/k/bzImage' ] && [ -s '$tmp/k/bzImage.config' ] && [ -s '$tmp/k/bzImage.changes' ]"
check "the trusted-keys file not in the tree: emptied, and said so" \
	sh -c "grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS=\"\"' '$tmp/k/bzImage.config' &&
	       grep -q 'CONFIG_SYSTEM_TRUSTED_KEYS emptied: debian/certs/debian-uefi-certs.pem is not in this tree' '$tmp/k.err'"
check "--lsmod: e1000, loaded on the target, built in (localyesconfig), and in the report" \
	sh -c "grep -qx 'CONFIG_E1000=y' '$tmp/k/bzImage.config' && grep -qx '   E1000 m -> y' '$tmp/k.out'"
check "the report (diffconfig's lines, indented): SCHEDSTATS, KEXEC and LOCALVERSION as the merge changed them, the count on its first line" \
	sh -c "grep -qx '   SCHEDSTATS n -> y' '$tmp/k.out' && grep -Eqx '  (\\+KEXEC y| KEXEC n -> y)' '$tmp/k.out' &&
	       grep -qx '   LOCALVERSION \"\" -> \"-pjt-sched\"' '$tmp/k.out' &&
	       head -n 1 '$tmp/k.out' | grep -q \"^run/kernel-target: \$(grep -c . '$tmp/k/bzImage.changes') options of $tmp/keys.config changed\""

base noproc --enable SMP --disable PROC_FS
"$tool" --config "$tmp/noproc.config" --out "$tmp/n/bzImage" --config-only >/dev/null 2>"$tmp/n.err"
rc=$?
check "a configuration without /proc: exit 1, SCHED_DEBUG and SCHEDSTATS named by their lines of patches/target.config" \
	sh -c "[ $rc = 1 ] && grep -q 'options Kconfig did not take' '$tmp/n.err' &&
	       grep -qx '$top/patches/target.config:[0-9]*: CONFIG_SCHED_DEBUG=y' '$tmp/n.err' &&
	       grep -qx '$top/patches/target.config:[0-9]*: CONFIG_SCHEDSTATS=y' '$tmp/n.err' && [ ! -e '$tmp/n/bzImage.config' ]"

echo "# ---- a build"
base small --enable SMP --disable SCHED_DEBUG --set-str LOCALVERSION ""
JOBS=${JOBS:-1} "$tool" --config "$tmp/small.config" --out "$tmp/b/bzImage-target" >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
sed 's/^/# /' "$tmp/b.err" | tail -n 3
check "a build: exit 0, the kernel's release ends -pjt-sched" \
	sh -c "[ $rc = 0 ] && [ -s '$tmp/b/bzImage-target' ] && tail -n 1 '$tmp/b.out' | grep -q ': Linux 6\.1\.[0-9]*-pjt-sched ('"
# The bzImage header's version string (at 0x200 + the offset at 0x20E).
check "... in the kernel itself: its version string says -pjt-sched" \
	sh -c "off=\$(od -An -tu2 -j526 -N2 '$tmp/b/bzImage-target' | tr -d ' ');
	       dd if='$tmp/b/bzImage-target' bs=1 skip=\$((off + 512)) count=80 2>/dev/null | tr '\\0' '\\n' | head -n 1 | grep -q '^6\.1\.[0-9]*-pjt-sched '"
check "every option of patches/target.config is in its configuration" \
	sh -c "grep '^CONFIG_' '$top/patches/target.config' | while read -r l; do grep -qxF \"\$l\" '$tmp/b/bzImage-target.config' || { echo \"missing \$l\"; exit 1; }; done"

echo "# ---- refusals"
check "no --config: exit 2, the option named" \
	sh -c "'$tool' >/dev/null 2>'$tmp/e'; [ \$? = 2 ] && grep -q 'no --config FILE' '$tmp/e'"
printf 'CONFIG_SMP=y\nthis is no config\n' > "$tmp/bad.config"
check "a line that is no configuration: exit 2, FILE:LINE named" \
	sh -c "'$tool' --config '$tmp/bad.config' >/dev/null 2>'$tmp/e'; [ \$? = 2 ] && grep -q '$tmp/bad.config:2: this is no config: not a kernel configuration line' '$tmp/e'"
check "--lsmod of a file that is no lsmod output: exit 2, FILE:1 named" \
	sh -c "'$tool' --config '$tmp/small.config' --lsmod '$tmp/bad.config' >/dev/null 2>'$tmp/e'; [ \$? = 2 ] && grep -q '$tmp/bad.config:1: not lsmod' '$tmp/e'"
tap_end
