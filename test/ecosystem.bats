#!/usr/bin/env bats
# Installation and the ways sbexec meets the rest of the system: the
# symlink farm, make install, and the syslog audit sink.

load helper

setup() {
	common_setup
}

teardown() {
	[ -z "${LISTENER:-}" ] || kill "$LISTENER" 2>/dev/null || true
}

@test "--link creates a link to sbexec for every command of the policy" {
	mkdir "$T/farm"
	run sbx --link "$T/farm"
	assert_success
	for n in ffprobe ffmpeg sh; do
		assert_equal "$(readlink "$T/farm/$n")" "$SBEXEC"
	done
}

@test "--link leaves correct links alone and refuses to replace anything else" {
	mkdir "$T/farm"
	ln -s "$SBEXEC" "$T/farm/ffprobe"
	echo admin >"$T/farm/ffmpeg"
	run sbx --link "$T/farm"
	assert_failure 125
	assert_output --partial "$T/farm/ffprobe: already a link"
	assert_output --partial "$T/farm/ffmpeg: exists and is not a link to"
	assert_equal "$(cat "$T/farm/ffmpeg")" admin
	assert_equal "$(readlink "$T/farm/sh")" "$SBEXEC"
}

@test "a farm link runs the command through the sandbox" {
	mkdir "$T/farm"
	sbx --link "$T/farm" >/dev/null
	sample
	run env PATH="$T/farm:$PATH" ffprobe -v error -show_entries format=nb_streams -of csv=p=0 sample.mp4
	assert_success
	assert_output 2
	grep -q '"mode":"sandbox"' "$AUDIT"
}

@test "make install lays out the binary, man pages, policy and symlink farm" {
	local d="$T/stage"
	run make -C "$TOP" -s install DESTDIR="$d" PREFIX=/usr/local
	assert_success
	[ -x "$d/usr/local/bin/sbexec" ]
	[ -f "$d/usr/local/share/man/man1/sbexec.1" ]
	[ -f "$d/usr/local/share/man/man5/sbexec.json.5" ]
	cmp "$TOP/policy.example.json" "$d/etc/sbexec/policy.json"
	for n in ffmpeg ffprobe; do
		assert_equal "$(readlink -f "$d/usr/local/lib/sbexec/bin/$n")" \
			"$d/usr/local/bin/sbexec"
	done
}

@test "make install never overwrites an admin's policy" {
	local d="$T/stage"
	mkdir -p "$d/etc/sbexec"
	echo '{"commands": {"x": "/bin/true"}}' >"$d/etc/sbexec/policy.json"
	make -C "$TOP" -s install DESTDIR="$d"
	assert_equal "$(cat "$d/etc/sbexec/policy.json")" '{"commands": {"x": "/bin/true"}}'
	make -C "$TOP" -s uninstall DESTDIR="$d"
	[ ! -e "$d/usr/local/bin/sbexec" ]
	[ -f "$d/etc/sbexec/policy.json" ]
}

@test "the syslog sink sends each record to /dev/log with ident sbexec, facility authpriv" {
	socat -u UNIX-RECV:"$T/log.sock" OPEN:"$T/syslog.txt",creat,append &
	LISTENER=$!
	for _ in $(seq 50); do [ -S "$T/log.sock" ] && break; sleep 0.1; done
	write_policy '{"commands": {"sh": "/bin/sh"}, "audit": "syslog"}'
	run with_dev_log "$T/log.sock" "$SBEXEC" sh -c 'echo inside'
	assert_success
	assert_output inside
	sleep 0.3
	run cat "$T/syslog.txt"
	# <86>: LOG_AUTHPRIV (10 << 3) | LOG_INFO (6)
	assert_output --regexp '^<86>sbexec\[[0-9]+\]: \{"type":"start",.*<86>sbexec\[[0-9]+\]: \{"type":"end",'
}

@test "an unreachable syslog sink stops the command before it runs" {
	write_policy '{"commands": {"sh": "/bin/sh"}, "audit": "syslog",
		"filesystem": {"allowWrite": ["."]}}'
	run with_dev_log "" "$SBEXEC" sh -c 'touch ran'
	assert_failure 125
	assert_output --partial "audit sink /dev/log"
	[ ! -e ran ]
}

# The README's first command: make demo runs this script.
@test "make demo's script probes its sample through the sandbox and shows the audit records" {
	run "$TOP/scripts/demo"
	assert_success
	assert_output --partial '"format_name": "mov,mp4,m4a,3gp,3g2,mj2"'
	assert_output --partial '"type":"start"'
	assert_output --partial '"type":"end"'
	refute_output --partial 'sbexec:'
}
