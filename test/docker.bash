# docker.bash: a Docker engine of the tests' own (test/container.bats,
# test/package.bats): dockerd started with no iptables and no bridge, its
# data, state and socket in a directory of its own under /tmp, and ended
# with everything it started. The caller sets DOCKER (the client) and
# CACHE (results/times gets each step's wall time).

# timed NAME CMD...: CMD, its wall time added to results/times.
timed() {
	local name=$1 start rc=0
	shift
	start=$(date +%s%N)
	"$@" || rc=$?
	printf '%s\t%d ms\t%s\n' "$name" $((($(date +%s%N) - start) / 1000000)) \
		"exit $rc" >>"$CACHE/results/times"
	return "$rc"
}

# start_dockerd: dockerd in $DK (a short path: its sockets must fit in
# 108 bytes), with a configuration of its own (none of /etc/docker's) and
# its own containerd namespace, so that a system dockerd or containerd
# on the machine is neither used nor disturbed; answers within 30 s.
start_dockerd() {
	local i start
	DK=$(mktemp -d /tmp/sbxdk.XXXXXX)
	DOCKER_HOST="unix://$DK/sock"
	DOCKER_CONFIG="$DK/config"	# the client reads no host config
	mkdir -p "$DOCKER_CONFIG"
	echo '{}' >"$DK/daemon.json"
	start=$(date +%s%N)
	(
		for fd in $(ls "/proc/$BASHPID/fd"); do
			[ "$fd" -le 2 ] || eval "exec $fd>&-"
		done
		exec dockerd --config-file "$DK/daemon.json" \
			--iptables=false --ip-masq=false --bridge=none \
			--data-root "$DK/data" --exec-root "$DK/exec" \
			--pidfile "$DK/dockerd.pid" -H "$DOCKER_HOST" \
			--containerd-namespace sbxtest \
			--containerd-plugins-namespace sbxtest-plugins
	) </dev/null >"$DK/dockerd.log" 2>&1 &
	echo $! >"$DK/pid"
	for i in $(seq 300); do
		if "$DOCKER" info >/dev/null 2>&1; then
			printf 'dockerd\t%d ms\n' $((($(date +%s%N) - start) / 1000000)) \
				>>"$CACHE/results/times"
			return 0
		fi
		kill -0 "$(cat "$DK/pid")" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# dockerd_says: the last words of a dockerd that did not answer.
dockerd_says() {
	{ grep -iE 'level=(error|fatal)|failed' "$DK/dockerd.log" ||
		cat "$DK/dockerd.log"; } | tail -n 3
}

# stop_dockerd: every container removed, dockerd ended (SIGTERM, SIGKILL
# after 20 s), then whatever it started that is still running (its
# containerd, shims): each by its pid, found by $DK in its command line;
# the mounts under $DK undone; $DK removed.
stop_dockerd() {
	local pid ids i p m
	[ -n "${DK:-}" ] && [ -d "$DK" ] || return 0
	if [ -s "$DK/pid" ]; then
		pid=$(cat "$DK/pid")
		ids=$(timeout 30 "$DOCKER" ps -aq 2>/dev/null) || ids=
		[ -z "$ids" ] || timeout 60 "$DOCKER" rm -f $ids >/dev/null 2>&1 || true
		kill -TERM "$pid" 2>/dev/null || true
		for i in $(seq 200); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	for p in /proc/[0-9]*; do
		if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF "$DK/"; then
			kill -KILL "${p#/proc/}" 2>/dev/null || true
		fi
	done
	awk -v dk="$DK/" 'index($2, dk) == 1 { print $2 }' /proc/self/mounts |
		sort -r | while read -r m; do umount -l "$m" || true; done
	rm -rf "$DK"
}

