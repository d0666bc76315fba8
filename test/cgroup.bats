#!/usr/bin/env bats
# One cgroup per run (cgroup.c): run-wide limits for memory, tasks and
# CPU, root included, the teardown nothing in the run can hide from, and
# the end record's figures of the whole run. The attacker is native code
# loaded from argv alone (attack, helper.bash) running test/probe_run.c;
# each claim is shown working without the run-wide limit first. Both
# backends, as root (where this host's cgroups are v1; the VM rig's
# kernels have v2); the refusal and the fallback where no cgroup can be
# made, as a user.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	export PROBE_RUN="$BATS_FILE_TMPDIR/probe_run"
	build_probes probe_run
	test_user
}

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "the run-wide limits need root here (no delegated cgroup)"
	# The positive control: root can make a run's cgroup on this host.
	run -0 "$SBEXEC" --check
	[[ "$output" != *"cgroup           none here"* ]] ||
		skip "no cgroup for root here: $(grep -o 'none here (.*' <<<"$output")"
	TAG="sbxhide$RANDOM"
}

teardown() {
	pkill -KILL -x "$TAG" 2>/dev/null || true
}

# limits BACKEND JSON: the test policy on BACKEND, "." writable, with
# JSON (members of "limits").
limits() {
	policy ", \"sandbox\": \"$1\", \"filesystem\": {\"allowWrite\": [\".\"]},
	  \"limits\": {$2}"
}

# base: where this host's runs get their cgroups (v2, or v1's pids).
base() {
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		echo /sys/fs/cgroup/sbexec
	else
		echo /sys/fs/cgroup/pids/sbexec
	fi
}

runs_left() {
	find "$(base)" -maxdepth 1 -name 'run-*' 2>/dev/null | wc -l
}

end_field() { audit_get end "r[\"$1\"]"; }

# alive NAME: a process of that name that is not a zombie (an orphan the
# machine's init has not reaped yet is no survivor).
alive() {
	ps -eo stat=,comm= | awk -v n="$1" '$1 !~ /^Z/ && $2 == n { f = 1 } END { exit !f }'
}

@test "a fork flood stops at runTasks, as root, on both backends; processes (RLIMIT_NPROC) does not bind root" {
	run -0 attack ffmpeg hold:2 forks:300
	assert_line forks=300
	for b in bwrap landlock; do
		limits "$b" '"processes": 64'
		run attack "$BIN/ffmpeg" hold:2 forks:300
		assert_line forks=300
		limits "$b" '"runTasks": 64'
		run attack "$BIN/ffmpeg" forks:300
		[[ "$output" =~ forks=([0-9]+) ]]
		[ "${BASH_REMATCH[1]}" -lt 64 ]
		assert_output --partial "the run reached runTasks 64:"
		[ "$(end_field tasksRefused)" -gt 0 ]
	done
}

@test "8 processes cannot together hold more than runMemoryBytes, on both backends; the end record says oom" {
	run -0 attack ffmpeg hold:1 memory:8
	assert_line memory=8
	for b in bwrap landlock; do
		limits "$b" '"runMemoryBytes": 268435456'
		run attack "$BIN/ffmpeg" hold:1 memory:8
		# The kernel may pick the probe itself; then the peak says it.
		if [[ "$output" =~ memory=([0-9]+) ]]; then
			[ "${BASH_REMATCH[1]}" -le 4 ]	# 4 x 64 MiB
		fi
		assert_output --partial "the run reached runMemoryBytes 268435456"
		assert_equal "$(end_field oom)" true
		[ "$(end_field runPeakBytes)" -le 268435456 ]
		[ "$(end_field runPeakBytes)" -gt 134217728 ]
	done
}

# queued: the MiB the sockbuf probe queued, from $output.
queued() {
	[[ "$output" =~ sockbuf=([0-9]+) ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# in_memcg DIR CMD...: CMD in the v1 memory cgroup DIR.
in_memcg() {
	local m=$1
	shift
	(echo "$BASHPID" >"$m/cgroup.procs" && "$@")
}

@test "loopback TCP buffers count against runMemoryBytes, on both backends; v1's memory.limit_in_bytes alone does not bound them" {
	local limit=$((64 << 20)) m net want
	# Without sbexec: the probe stops at 256 MiB, or half the host-wide
	# tcp_mem bound (a small guest's is below 256 MiB); at least twice
	# the most sbexec may let through, or the control shows nothing.
	want=$(awk '{ w = int($3 * 4096 / 2 / 1048576);
	  print (w < 256 ? w : 256) }' /proc/sys/net/ipv4/tcp_mem)
	[ "$want" -ge 144 ] ||
		skip "tcp_mem lets the host queue only $((want * 2)) MiB: too little to tell a bound of 64 MiB"
	run -0 attack ffmpeg "sockbuf:$want"
	[ "$(queued)" -ge "$want" ]
	if [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ]; then
		# v1: a cgroup with only memory.limit_in_bytes counts none of it.
		m=/sys/fs/cgroup/memory/sbxtest$RANDOM
		mkdir "$m"
		echo "$limit" >"$m/memory.limit_in_bytes"
		run -0 in_memcg "$m" attack ffmpeg "sockbuf:$want"
		[ "$(queued)" -ge "$want" ]
		[ "$(cat "$m/memory.max_usage_in_bytes")" -lt "$limit" ]
		rmdir "$m"
	fi
	# bwrap's "none" keeps a loopback of its own; under Landlock "none"
	# refuses inet sockets, so "host" lends it the host's.
	for b in bwrap landlock; do
		[ "$b" = bwrap ] && net=none || net=host
		policy ", \"sandbox\": \"$b\", \"network\": \"$net\",
		  \"filesystem\": {\"allowWrite\": [\".\"]},
		  \"limits\": {\"runMemoryBytes\": $limit}"
		run attack "$BIN/ffmpeg" "sockbuf:$want"
		# v2 charges them with the rest: the kernel may kill the probe.
		if queued >/dev/null; then
			[ "$(queued)" -le 72 ]	# 64 MiB and slack
			[ "$(queued)" -ge 16 ]	# the sockets do work
		else
			assert_equal "$(end_field oom)" true
		fi
		[ "$(end_field runPeakBytes)" -gt $((limit / 2)) ]
	done
}

@test "4 busy processes cannot pass runCpuSeconds together, on both backends; cpuSeconds (RLIMIT_CPU) bounds each alone" {
	for b in bwrap landlock; do
		limits "$b" '"cpuSeconds": 1'
		run sbx sh -c "'$PROBE_RUN' spin:4"
		[ "$(end_field cpuMs)" -gt 3000 ]	# 4 x 1 s, each under its own limit
		limits "$b" '"runCpuSeconds": 1'
		run -125 attack "$BIN/ffmpeg" spin:4
		assert_output --partial "past runCpuSeconds 1; stopped"
		assert_equal "$(end_field cpuExceeded)" true
		[ "$(end_field runCpuMs)" -ge 1000 ]
		[ "$(end_field runCpuMs)" -lt 2000 ]
	done
}

@test "a process in a session of its own, its parent gone, dies with the run, on both backends" {
	run -0 attack ffmpeg hold:30 "hide:$TAG"
	alive "$TAG"
	pkill -KILL -x "$TAG"
	for b in bwrap landlock; do
		limits "$b" '"runTasks": 1000'
		run -0 attack "$BIN/ffmpeg" hold:30 "hide:$TAG"
		run alive "$TAG"
		assert_failure
	done
}

@test "the end record's figures are the cgroup's: CPU and peak memory of the whole run" {
	limits bwrap '"runTasks": 1000'
	run -0 attack "$BIN/ffmpeg" hold:1 memory:2 spin:2
	[ "$(end_field runPeakBytes)" -ge 134217728 ]
	[ "$(end_field runCpuMs)" -ge 3500 ]
	assert_equal "$(end_field oom)" false
	assert_equal "$(end_field tasksRefused)" 0
	run audit_get start 'r["cgroup"]'
	assert_output --partial "\"$(base)/run-"
}

@test "no cgroup is left after 200 concurrent runs, nor after a sbexec killed with SIGKILL" {
	limits bwrap '"runTasks": 64'
	seq 200 | xargs -P 40 -I{} "$SBEXEC" sh -c : 2>&1
	assert_equal "$(runs_left)" 0
	"$SBEXEC" sh -c 'sleep 30' &
	local pid=$!
	for _ in $(seq 100); do
		[ "$(runs_left)" -eq 1 ] && break
		sleep 0.05
	done
	assert_equal "$(runs_left)" 1
	sleep 0.3
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	assert_equal "$(runs_left)" 1	# the positive control
	run -0 "$SBEXEC" sh -c :
	assert_equal "$(runs_left)" 0
}

# on_v2 CMD...: CMD where /sys/fs/cgroup is cgroup v2: the host's, or
# else the v2 hierarchy mounted there in a mount namespace of CMD's own
# (where v1 holds every controller, as here, a v2 cgroup still counts
# CPU time and has cgroup.kill: runCpuSeconds needs no controller).
on_v2() {
	if [ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ]; then
		"$@"
	else
		unshare -m --propagation private sh -c \
			'mount -t cgroup2 cgroup2 /sys/fs/cgroup && exec "$@"' sh "$@"
	fi
}

@test "cgroup v2: a live run's cgroup is left alone by a sbexec in another PID namespace, where the run's sbexec is no process" {
	grep -qw cgroup2 /proc/filesystems || skip "no cgroup v2 in this kernel"
	limits bwrap '"runCpuSeconds": 60'
	on_v2 "$SBEXEC" sh -c 'sleep 2; echo lived' >"$T/first" 2>&1 &
	local pid=$! name
	for _ in $(seq 100); do
		grep -q '"type":"start"' "$AUDIT" 2>/dev/null && break
		sleep 0.05
	done
	name=$(audit_get start 'r["cgroup"]')
	[[ "$name" =~ /sbexec/run-([0-9]+)- ]]
	# The positive control: from a new PID namespace the PID the live
	# cgroup's name carries is no process (the sweep before the lock
	# took that for stale and wrote cgroup.kill: the run died, 137).
	run unshare -p -f --mount-proc sh -c "kill -0 ${BASH_REMATCH[1]}"
	assert_failure
	run -0 on_v2 unshare -p -f --mount-proc "$SBEXEC" sh -c 'echo second'
	assert_output second
	wait "$pid"
	assert_equal "$(cat "$T/first")" lived
	run -0 on_v2 find /sys/fs/cgroup/sbexec -maxdepth 1 -name 'run-*'
	assert_output ""
}

# user_dir: a new directory of root's for the test user's runs, its
# path printed: the policy goes in it, and w/, the user's, is the cwd
# that holds the audit; x/ holds payload.so, an executable tree the
# user can read (the caller sets XDIR to it for policy()), as bats's
# own 0700 directories are not.
user_dir() {
	local d
	d=$(mktemp -d /tmp/sbxcg.XXXXXX)
	chmod 755 "$d"
	mkdir "$d/w"
	chown "$CUID:$CGID" "$d/w"
	mkdir -m 755 "$d/x"
	cp "$BATS_FILE_TMPDIR/payload.so" "$d/x/"
	echo "$d"
}

@test "where no cgroup can be made: run-wide limits refuse (125, why), unless limits.cgroup is optional, loudly" {
	local who=(setpriv --reuid="$CUID" --regid="$CGID" --clear-groups --)
	local d
	d=$(user_dir)
	export SBEXEC_POLICY="$d/policy.json" AUDIT="$d/w/audit.jsonl"
	export XDIR="$d/x"
	cd "$d/w"
	limits bwrap '"runTasks": 64'
	run -125 "${who[@]}" "$SBEXEC" sh -c 'echo ran'
	refute_output --partial ran
	assert_output --partial "the run-wide limits need one (or set limits.cgroup to \"optional\""
	limits bwrap '"runTasks": 64, "cgroup": "optional"'
	run -0 "${who[@]}" "$SBEXEC" sh -c 'echo ran'
	assert_output --partial ran
	run audit_get start 'r["reasons"]'
	assert_output --partial "limits: no cgroup (cgroup:"
	run -0 "${who[@]}" "$SBEXEC" --check
	assert_line --partial "cgroup           none here (cgroup:"
	limits bwrap ''
	run -0 "${who[@]}" "$SBEXEC" sh -c 'echo ran'
	assert_output ran	# no run-wide limit: no cgroup needed
	rm -rf "$d"
}

@test "--check says where each run's cgroup goes and how it counts socket buffers; limits.cgroup is \"required\" or \"optional\"" {
	run -0 "$SBEXEC" --check
	assert_line --regexp "^  cgroup           v[12], each run's under /sys/fs/cgroup.* \(controllers: .*pids.*\)$"
	assert_line --regexp "^  socket buffers   counted (in memory.max|apart on v1 \(memory.kmem.tcp.limit_in_bytes)"
	limits bwrap '"cgroup": "sometimes"'
	run -125 "$SBEXEC" --check
	assert_output --partial 'limits.cgroup: must be "required" or "optional"'
}

# delegate UNIT: a subtree delegated to the test user as systemd delegates
# user@UID.service (the directory and its cgroup.procs, cgroup.threads
# and cgroup.subtree_control owned by the user; pids and memory enabled
# down to it), with a scope of the user's inside, the way systemd --user
# puts a login's processes in app.slice.
delegate() {
	local top=$1 u="$1/user@$CUID.service" f
	mkdir -p "$u/app.slice/test.scope"
	for f in "$top" "$u"; do
		echo "+pids +memory" >"${f%/*}/cgroup.subtree_control"
	done
	echo "+pids +memory" >"$u/cgroup.subtree_control"
	chown -R "$CUID:$CGID" "$u"
}

@test "a user in a subtree delegated as systemd delegates user@UID.service: the run's cgroup goes under it, and runTasks holds" {
	[ "$(stat -f -c %T /sys/fs/cgroup)" = cgroup2fs ] ||
		skip "cgroup v1 here, which delegates nothing to a user (the VM rig's guests have v2)"
	local top="/sys/fs/cgroup/sbxtest$RANDOM.slice" d
	local u="$top/user@$CUID.service"
	delegate "$top"
	d=$(user_dir)
	export SBEXEC_POLICY="$d/policy.json" AUDIT="$d/w/audit.jsonl"
	export XDIR="$d/x"
	mkdir "$d/bin"
	ln -s "$SBEXEC" "$d/bin/ffmpeg"
	# attack (helper.bash) as a script the user can run.
	cat >"$d/attack" <<-EOF
		#!/bin/sh
		printf '%s\n' "\$@" >payload.args
		exec "$d/bin/ffmpeg" -nostdin -v error -f lavfi -i anullsrc \\
		    -af ladspa=file=$XDIR/payload.so -t 0.1 -f null -
	EOF
	chmod 755 "$d/attack"
	cd "$d/w"
	# The positive control: outside the delegated subtree the user gets
	# no cgroup, so a run-wide limit refuses the run.
	limits bwrap '"runTasks": 64'
	run -125 setpriv --reuid="$CUID" --regid="$CGID" --clear-groups -- \
		"$d/attack" forks:300
	assert_output --partial "outside the subtree systemd delegates"
	# Inside it: root moves the shell in, then becomes the user.
	run sh -c 'echo $$ >"$1/cgroup.procs" && shift &&
		exec setpriv --reuid="$1" --regid="$2" --clear-groups -- "$3" forks:300' \
		sh "$u/app.slice/test.scope" "$CUID" "$CGID" "$d/attack"
	[[ "$output" =~ forks=([0-9]+) ]] || fail "no fork count: $output"
	[ "${BASH_REMATCH[1]}" -lt 64 ]
	assert_output --partial "the run reached runTasks 64:"
	run audit_get start 'r["cgroup"]'
	assert_output --regexp "^\"$u/sbexec/run-[0-9]+-[0-9]+\"\$"
	[ "$(end_field runTasksPeak)" -le 64 ]
	[ -z "$(find "$u/sbexec" -mindepth 1 -maxdepth 1 -name 'run-*')" ]
	cd /
	rmdir "$u/sbexec" "$u/app.slice/test.scope" "$u/app.slice" "$u" "$top"
	rm -rf "$d"
}
