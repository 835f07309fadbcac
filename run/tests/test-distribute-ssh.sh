#!/bin/sh
# run/tests/test-distribute-ssh.sh: run/distribute's -j warning, and
# run/distribute --hosts over SSH for real, on this machine alone.
#
# A private sshd (Debian's, unpacked by make check-deps into build/sshd-root,
# never installed: no service) listens on
# 127.0.0.1 only, on a free high port, with its own config, host key and
# authorized_keys in a mktemp -d folder: key-only logins, two ed25519
# client keys.  An ssh config (PARALLEL_SSH="ssh -F FILE", which GNU
# parallel uses for every login and rsync) names two hosts, pjt-a and
# pjt-b, both 127.0.0.1:PORT as this user, each with its own key.
#
# Each key's forced command makes its login another host, as far as the
# files run/distribute sends matter: it runs the command in its own mount
# namespace with the host's own folder (THERE-a, THERE-b, empty at first)
# mounted over HERE, the folder that holds the kernel, image, matrix and
# results on this side.  So a file is in THERE-X only if parallel copied
# it to host X (--basefile), and a shard's folder is in HERE only if
# parallel brought it back (--return).  The project itself is at the same
# path on both sides, as README says a host needs; the "hosts" boot with
# the fake boot of the host tests (no QEMU).  Nothing but 127.0.0.1 is
# contacted; sshd is stopped and its folder removed on exit, on failure
# and when interrupted.  The host's enabled services (systemctl where
# systemd runs, else the .wants links of /etc/systemd/system) and its
# listening sockets are the same after the test as before.  Skipped (one
# "# SKIP" line) only without build/sshd-root.
# check: reads listening sockets (run/check runs it in its QEMU lane, so
# test-target.sh's box, whose port is forwarded, never runs beside it)
# TAP-ish output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/run/tests/fixtures
tap=$fixtures/tap.sh
fake_boot=$fixtures/matrix/fake-boot
. "$tap"
tap_begin test-distribute-ssh
distribute=$top/run/distribute
plan_tool=$top/build/matrix-plan

# ---- the -j warning (no SSH, --dry-run) ----------------------------------
echo kernel >"$tmp/bzImage"
echo image >"$tmp/image"
cores=$(nproc)
# as many boots as cores: -j (cores) shards at once
cat >"$tmp/w.matrix" <<EOF
name w
settle 0
reps $cores
boots $cores
combo stock
workload fork rate=10
EOF
warned() { # ARGS...: --dry-run ARGS; stderr in $tmp/w.err; exit 0
	"$distribute" --dry-run "$@" --kernel "$tmp/bzImage" --initrd "$tmp/image" --out "$tmp/w" \
		"$tmp/w.matrix" >/dev/null 2>"$tmp/w.err"
}
j=$cores # cores x 4 vCPUs (the default guest) is more than cores
warned -j "$j"
check "-j $j, guests of 4 vCPUs (the default): a warning naming $((j * 4)) vCPU threads and the $cores cores" \
	sh -c "cat '$tmp/w.err'; [ \$(grep -c '^run/distribute: warning: ' '$tmp/w.err') = 1 ] &&
	       grep -q '^run/distribute: warning: -j $j: $j guests\\{0,1\\} of 4 vCPUs at once on this host, $((j * 4)) vCPU threads on its $cores cores (nproc)' '$tmp/w.err'"
warned -j 1 --smp 1
check "-j 1 --smp 1: 1 vCPU thread, no warning" sh -c "cat '$tmp/w.err'; ! grep -q warning '$tmp/w.err'"
warned -j "$j" --smp sockets=1,cores=1,threads=1
check "-j $j with 1-vCPU guests: $j threads on $cores cores, no warning" sh -c "cat '$tmp/w.err'; ! grep -q warning '$tmp/w.err'"
warned -j 2 --shards 1 --smp "$cores"
check "-j 2 but 1 shard of $cores vCPUs: one guest at a time, no warning" sh -c "cat '$tmp/w.err'; ! grep -q warning '$tmp/w.err'"
warned -j "$j" --hosts h1,h2
check "-j $j on remote hosts only: no warning (their cores are not known here)" sh -c "cat '$tmp/w.err'; ! grep -q warning '$tmp/w.err'"
warned -j "$j" --hosts h1,:
check "-j $j with ':' (this host) among the hosts: the warning" grep -q '^run/distribute: warning: -j ' "$tmp/w.err"

# ---- a private sshd on 127.0.0.1 ----------------------------------------
sshd_root=$top/build/sshd-root
sshd=$sshd_root/usr/sbin/sshd
if [ ! -x "$sshd" ] || [ ! -r "$sshd_root/library-path" ]; then
	skip "no sshd in $sshd_root (make check-deps)"
	tap_end
	exit
fi
# What the host offers: its enabled services (systemctl where systemd runs,
# else the .wants links under /etc/systemd/system) and listening sockets.
host_services() {
	if [ -d /run/systemd/system ] && systemctl list-unit-files --state=enabled --no-legend --no-pager >"$tmp/units" 2>&1; then
		sed 's/^/unit /' "$tmp/units"
	else
		find /etc/systemd/system -path '*.wants/*' 2>/dev/null | sed 's/^/wants /'
	fi
	ss -ltunH | awk '{ print "listening", $1, $5 }'
}
host_services | sort >"$tmp/services-before"
d=$(mktemp -d "${TMPDIR:-/tmp}/pjt-sshd.XXXXXX") || exit 1
sshd_pid= made_privsep=
stop_sshd() {
	[ -z "$sshd_pid" ] || { kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; }
	sshd_pid=
}
cleanup() {
	stop_sshd
	rm -rf "$d" "$tmp"
	[ -z "$made_privsep" ] || rmdir "$made_privsep" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
trap 'exit 141' PIPE # its output cut short (| head): stop all the same

user=$(id -un)
here=$tmp/here # this side's files; a host sees its own folder there
mkdir -p "$here" "$d/there-a" "$d/there-b"
ssh-keygen -q -t ed25519 -N '' -C pjt-test-host -f "$d/host_key"
ssh-keygen -q -t ed25519 -N '' -C pjt-a -f "$d/key-a"
ssh-keygen -q -t ed25519 -N '' -C pjt-b -f "$d/key-b"
# The hosts' folders: a mount namespace (not root: in a user namespace).
if [ "$(id -u)" = 0 ]; then ns='unshare -m'; else ns='unshare -r -m'; fi
for h in a b; do
	# The host: this machine with its own folder over HERE, the fake boot,
	# its own fake guest (the two hosts run at once).
	mkdir -p "$d/guest-$h/bin"
	printf '#!/bin/sh\necho mode=fork duration_s=0.1 migrations=3 nr_migrations=4 ops_per_s=100\n' \
		>"$d/guest-$h/bin/pjtload"
	chmod +x "$d/guest-$h/bin/pjtload"
	cat >"$d/host-$h" <<EOF
#!/bin/sh
# pjt-$h (sshd's forced command for key-$h): the login's command with
# $d/there-$h mounted over $here.
printf '%s\\n' "\$SSH_ORIGINAL_COMMAND" >> '$d/commands-$h'
export PJT_MATRIX_BOOT='$fake_boot' FAKE_GUEST='$d/guest-$h'
exec $ns sh -c 'mount --bind "\$1" "\$2" && exec "\$3" -c "\$SSH_ORIGINAL_COMMAND"' sh '$d/there-$h' '$here' "\${SHELL:-/bin/sh}"
EOF
	chmod +x "$d/host-$h"
	printf 'restrict,command="%s" %s\n' "$d/host-$h" "$(cat "$d/key-$h.pub")" >>"$d/authorized_keys"
done
# The unpacked sshd, with its libraries from $sshd_root.  Root's sshd also
# needs its privilege separation user, whom Debian's package adds: on a
# host without it, sshd runs in a mount namespace of its own whose
# /etc/passwd has that user too (nobody's ids).
{
	echo '#!/bin/sh'
	echo "export LD_LIBRARY_PATH='$(cat "$sshd_root/library-path")'"
	if [ "$(id -u)" = 0 ] && ! getent passwd sshd >/dev/null; then
		{ cat /etc/passwd; echo 'sshd:x:65534:65534::/run/sshd:/usr/sbin/nologin'; } >"$d/passwd"
		echo "exec unshare -m sh -c 'mount --bind \"\$0\" /etc/passwd && exec \"\$@\"' '$d/passwd' '$sshd' \"\$@\""
	else
		echo "exec '$sshd' \"\$@\""
	fi
} >"$d/sshd"
chmod +x "$d/sshd"
# Root's sshd needs its privilege separation folder (Debian makes it when
# its service starts, which this test does not do).
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
	mkdir -m 755 /run/sshd && made_privsep=/run/sshd
fi
write_configs() { # PORT
	cat >"$d/sshd_config" <<EOF
ListenAddress 127.0.0.1:$1
AddressFamily inet
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
AuthorizedPrincipalsFile none
AllowUsers $user
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
HostbasedAuthentication no
PermitEmptyPasswords no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
PermitTunnel no
MaxStartups 100:30:200
LogLevel VERBOSE
EOF
	cat >"$d/ssh_config" <<EOF
Host pjt-a
	IdentityFile $d/key-a
Host pjt-b
	IdentityFile $d/key-b
Host pjt-a pjt-b
	HostName 127.0.0.1
	Port $1
	User $user
	HostKeyAlias pjt-test-host
	UserKnownHostsFile $d/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	CheckHostIP no
	IdentitiesOnly yes
	IdentityAgent none
	PreferredAuthentications publickey
	BatchMode yes
	ConnectTimeout 10
	LogLevel ERROR
EOF
}
echo "pjt-test-host $(cut -d' ' -f1,2 "$d/host_key.pub")" >"$d/known_hosts"
# A free high port: sshd says so once it listens; another port if it
# could not bind.
port= tries=0
while [ -z "$port" ] && [ "$tries" -lt 8 ]; do
	tries=$((tries + 1))
	p=$(awk -v s="$$$tries" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
	write_configs "$p"
	"$d/sshd" -t -f "$d/sshd_config" >"$d/sshd-t.log" 2>&1 || break
	: >"$d/sshd.log"
	"$d/sshd" -D -f "$d/sshd_config" -E "$d/sshd.log" &
	sshd_pid=$!
	waited=0
	while kill -0 "$sshd_pid" 2>/dev/null && ! grep -q "Server listening on 127.0.0.1 port $p" "$d/sshd.log" &&
		[ "$waited" -lt 50 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	if kill -0 "$sshd_pid" 2>/dev/null && grep -q "Server listening on 127.0.0.1 port $p" "$d/sshd.log"; then
		port=$p
	else
		stop_sshd
	fi
done
check "sshd -f (own config, host key, authorized_keys in $d) listens on 127.0.0.1:${port:-?} only" \
	sh -c "cat '$d/sshd-t.log' '$d/sshd.log'; [ -n '$port' ] &&
	       [ \$(grep -c 'Server listening on' '$d/sshd.log') = 1 ]"
[ -n "$port" ] || { tap_end; exit 1; }
check "it is the unpacked $sshd (not an installed one), and ss sees it listen on 127.0.0.1:$port" \
	sh -c "[ \"\$(readlink /proc/$sshd_pid/exe)\" = '$sshd' ] && ss -ltnH | awk '{ print \$4 }' | grep -qx '127.0.0.1:$port'"
export PARALLEL_SSH="ssh -F $d/ssh_config"
check "ssh -F: pjt-a and pjt-b log in (each its own key, the host key checked), each in its own folder" \
	sh -c "[ \"\$($PARALLEL_SSH pjt-a 'id -un; mount | grep -c \" $here \"')\" = '$user
1' ] && [ \"\$($PARALLEL_SSH pjt-b 'echo b > $here/mark; id -un')\" = '$user' ] &&
	       [ -e '$d/there-b/mark' ] && [ ! -e '$d/there-a/mark' ] && [ ! -e '$here/mark' ] && rm '$d/there-b/mark'"
ssh-keygen -q -t ed25519 -N '' -C stranger -f "$tmp/stranger"
check "key-only: another key is refused, and sshd offers nothing but publickey" \
	sh -c "! ssh -F /dev/null -o IdentityFile='$tmp/stranger' -o IdentitiesOnly=yes -o IdentityAgent=none \
	         -o UserKnownHostsFile='$d/known_hosts' -o HostKeyAlias=pjt-test-host -o GlobalKnownHostsFile=/dev/null \
	         -o StrictHostKeyChecking=yes -o BatchMode=yes -p $port $user@127.0.0.1 true 2>'$tmp/refused';
	       cat '$tmp/refused'; grep -q 'Permission denied (publickey)' '$tmp/refused'"
check "the host key is checked: another known_hosts is refused" \
	sh -c "k=\$(ssh-keygen -q -t ed25519 -N '' -f '$tmp/other' </dev/null >/dev/null; cut -d' ' -f1,2 '$tmp/other.pub');
	       echo \"pjt-test-host \$k\" >'$tmp/other_known';
	       ! $PARALLEL_SSH -o UserKnownHostsFile='$tmp/other_known' pjt-a true 2>'$tmp/hk'; cat '$tmp/hk';
	       grep -qi 'host key' '$tmp/hk'"

# ---- run/distribute --hosts pjt-a,pjt-b ---------------------------------
echo kernel >"$here/bzImage"
echo image >"$here/image"
cp "$fixtures/matrix/small.matrix" "$here/small.matrix"
make -s -f "$top/run/matrix.mk" TOP="$top" BUILD="$top/build" matrix-tools >"$tmp/make.log" 2>&1 ||
	{ n=$((n + 1)); echo "not ok $n - build/matrix-plan builds"; sed 's/^/# /' "$tmp/make.log"; tap_end; exit 1; }
"$plan_tool" "$here/small.matrix" >"$tmp/small.plan"
work=$here/out.distribute
"$distribute" -j 1 --hosts pjt-a,pjt-b --no-report --kernel "$here/bzImage" --initrd "$here/image" \
	--out "$here/out" "$here/small.matrix" >"$tmp/d.out" 2>"$tmp/d.err" </dev/null
rc=$?
check "run/distribute -j 1 --hosts pjt-a,pjt-b: exit 0 (2 shards, one per host)" \
	sh -c "sed -n '1,40p' '$tmp/d.err'; [ $rc = 0 ] && grep -q '2 shards of $here/small.matrix' '$tmp/d.err'"
host_of() { awk -F'\t' -v k="$1" 'NR > 1 && $1 == k { h = $2 } END { print h }' "$work/joblog"; }
check "each host ran one shard (parallel's job log), each logged in with its own key (sshd's log)" \
	sh -c "cat '$work/joblog'; [ \"\$(awk -F'\t' 'NR > 1 && \$7 == 0 { print \$2 }' '$work/joblog' | sort | tr '\n' ' ')\" = 'pjt-a pjt-b ' ] &&
	       grep -q 'Accepted publickey for $user from 127.0.0.1 .* ED25519 $(ssh-keygen -l -f "$d/key-a.pub" | cut -d' ' -f2)' '$d/sshd.log' &&
	       grep -q 'Accepted publickey for $user from 127.0.0.1 .* ED25519 $(ssh-keygen -l -f "$d/key-b.pub" | cut -d' ' -f2)' '$d/sshd.log'"
basefiles_there() { # X: host X's folder holds what --basefile sent, the same bytes
	for f in bzImage image small.matrix out.distribute/settings out.distribute/plan-args out.distribute/run-args; do
		cmp "$here/$f" "$d/there-$1/$f" || return 1
	done
}
check "--basefile: pjt-a's own folder got the kernel, the image, the matrix and the work folder's settings" basefiles_there a
check "--basefile: so did pjt-b's" basefiles_there b
returned() { # K: shard K's folder and log are here, as its host wrote them there
	x=$(host_of "$1")
	case $x in pjt-a|pjt-b) ;; *) echo "shard $1: no host in the job log"; return 1 ;; esac
	t=$d/there-${x#pjt-}/out.distribute
	[ -s "$t/shard-$1/runs.csv" ] && [ "$(cat "$t/shard-$1/shard.txt")" = "$1/2" ] || { echo "shard $1 did not run on $x"; return 1; }
	diff -r "$t/shard-$1" "$work/shard-$1" && cmp "$t/shard-$1.log" "$work/shard-$1.log"
}
check "--return: shard 1's folder and log came back from the host that ran it" returned 1
check "--return: so did shard 2's" returned 2
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next } { print $n }' "$2" 2>/dev/null; }
check "run/merge: the merged folder has every seq of the plan once, in order" \
	test "$(col seq "$here/out/runs.csv" | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 "
check "... and the plan's cells, seq by seq" \
	test "$(awk -F, 'NR > 1 { print $1, $3, $5, $6 }' "$here/out/runs.csv")" = \
	"$(awk -F'\t' '$1 == "run" { print $2, $4, $7, $6 }' "$tmp/small.plan")"
check "merged runs.csv: shard 1/2 and 2/2, four rows each" \
	test "$(col shard "$here/out/runs.csv" | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" = "1/2:4 2/2:4 "
check "only 127.0.0.1 logged in; no password or keyboard-interactive attempt" \
	sh -c "grep -q 'Accepted publickey for $user from 127.0.0.1 ' '$d/sshd.log' &&
	       ! grep 'Accepted [a-z-]* for\\|Failed [a-z-]* for\\|Connection from' '$d/sshd.log' | grep -v ' from 127\\.0\\.0\\.1 port ' &&
	       ! grep -q 'Accepted password\\|Accepted keyboard' '$d/sshd.log'"

# ---- stop ---------------------------------------------------------------
pid=$sshd_pid
stop_sshd
check "sshd stopped (its folder goes at exit, also on failure or interrupt)" \
	sh -c "! kill -0 $pid 2>/dev/null && ! $PARALLEL_SSH -o ConnectTimeout=2 pjt-a true 2>/dev/null"
[ -z "$made_privsep" ] || { rmdir "$made_privsep"; made_privsep=; }
host_services | sort >"$tmp/services-after"
check "the same services enabled and the same sockets listening as before the test (listening: $(grep -c "^listening" "$tmp/services-after"), units or .wants links: $(grep -vc "^listening" "$tmp/services-after"))" \
	diff "$tmp/services-before" "$tmp/services-after"
tap_end
