#!/usr/bin/env bats
# The network allow-list (DESIGN 11, issue 12): "network" as an object
# {"allow", "deny", "allowAddresses"}. The command keeps a loopback-only
# namespace and gets http_proxy=http://127.0.0.1:3128, a proxy sbexec runs
# outside the sandbox: CONNECT host:port and absolute GET/HEAD only, to
# names the policy allows, at addresses that are public or listed in
# allowAddresses, each connection an audit record of type "net".
#
# Everything here runs in a private network and mount namespace made once
# per file (unshare -n -m, as root): its /etc/hosts is $NET/hosts (the
# names below), its loopback also holds 10.1.2.3 and 169.254.169.254, so
# the attacks have real targets and never touch the host's LAN or a real
# cloud metadata service. In it:
#
#   media.test (and www/img.cdn.test, cdn.test, other.test) -> 127.0.0.2:
#       test/origin.py over $NET/media on HTTP_PORT, TLS_PORT (https), 80
#       and 443 (https); requests logged in $ORIGIN_LOG.
#   the internal services, the SSRF targets, on port 80 of 127.0.0.1
#       (evil.test), ::1 (v6loop.test), 10.1.2.3 (lan.test) and
#       169.254.169.254 (meta.test): origin.py over $NET/internal, whose
#       secret.txt and latest/meta-data hold $TOKEN (an SRT subtitle, so
#       ffmpeg reads it); requests logged in $SECRET_LOG.
#   mixed.test -> 127.0.0.2 and 127.0.0.1; mapped.test -> ::ffff:127.0.0.1.
#   front ends of several names on 127.0.0.2, as a CDN's are (www.sni.test,
#       admin.test, secret.cdn.test; TLS, $NET/vhosts/NAME): one routes
#       by the TLS server name (SNI_PORT), one by the Host header
#       (FRONT_PORT), one routes by the server name of the last ClientHello
#       and takes only P-256, so that a client's first hello draws a
#       HelloRetryRequest (HRR_PORT); admin.test's and secret.cdn.test's
#       secret.txt hold $TOKEN; requests logged in $VHOST_LOG.
#   vault.cdn.test -> 127.0.0.3: test/origin.py over $NET/media on
#       HTTP_PORT, a cdn.test name on an address of its own.
#   DNS: /etc/resolv.conf names test/dns.py on 127.0.0.53, where
#       NAME.slow.test is 127.0.0.2 after 300 ms and no other name exists;
#       queries logged in $DNS_LOG with how many were outstanding.
#   dual.test -> 127.0.0.6, then 127.0.0.2: its first address takes no
#       connection on HTTP_PORT (test/deadport.py: connects time out),
#       its second is media.test's origin; the resolver keeps that order.
#   www.edge.test -> 127.0.0.4, secret.edge.test -> 127.0.0.5: one front
#       end that routes by the Host header on both addresses, as a CDN
#       answers each name with its own edges: https on EDGE_TLS_PORT,
#       plain http on EDGE_HTTP_PORT ($NET/vhosts); secret.edge.test's
#       secret.txt holds $TOKEN; requests logged in $VHOST_LOG.
#
# Every attack is first shown to WORK through sbexec with "network":
# "host" (the request reaches the internal service: the token or a line
# in $SECRET_LOG), then to FAIL under the allow-list: no token, no new
# line in $SECRET_LOG, and a net record with "allowed": false that names
# the host (or the literal) refused. Reason wording is not asserted.

load helper
bats_require_minimum_version 1.5.0

LIMITS='"limits": {"timeoutMs": 20000}'
# The system python when there is one: a pyenv shim costs 0.3 s a call.
PYTHON=python3
[ ! -x /usr/bin/python3 ] || PYTHON=/usr/bin/python3

setup_file() {
	export NET="$BATS_FILE_TMPDIR" NET_SKIP=
	if [ "$(id -u)" -ne 0 ]; then
		NET_SKIP="needs root for a private network and mount namespace"
		return 0
	fi
	if [ -n "${SBEXEC_BACKEND:-}" ]; then
		NET_SKIP="the allow-list is a bwrap feature (SBEXEC_BACKEND=$SBEXEC_BACKEND)"
		return 0
	fi
	: >"$NET/pids"
	if ! start_namespace; then
		NET_SKIP="unshare -n -m or the private /etc/hosts failed: $(cat "$NET/ns.err")"
		return 0
	fi
	make_media
	start_origins
}

teardown_file() {
	local pid
	[ -f "$NET/pids" ] || return 0
	while read -r pid; do
		kill "$pid" 2>/dev/null || true
	done <"$NET/pids"
}

setup() {
	[ -z "$NET_SKIP" ] || skip "$NET_SKIP"
	common_setup
	PIDS=()
}

teardown() {
	kill_pids
}

# ------------------------------------------------------------- helpers

# in_ns CMD...: CMD in the test namespace (private network, /etc/hosts),
# in the current directory. sbexec, its proxy, the direct ffprobe and the
# origins all run there. (Not nsenter --wd: it opens the directory before
# entering, and getcwd then answers "(unreachable)/...".)
in_ns() {
	nsenter -t "$NS_PID" -n -m -- sh -c 'cd "$1" && shift && exec "$@"' \
		sh "$PWD" "$@"
}

# wait_file FILE: until FILE exists (5 s at most).
wait_file() {
	local _
	for _ in $(seq 100); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# net_hosts: the namespace's /etc/hosts.
net_hosts() {
	cat <<-'EOF'
		127.0.0.1 localhost
		::1 localhost
		127.0.0.2 media.test
		127.0.0.2 www.cdn.test
		127.0.0.2 img.cdn.test
		127.0.0.2 cdn.test
		127.0.0.2 other.test
		127.0.0.1 evil.test
		10.1.2.3 lan.test
		169.254.169.254 meta.test
		127.0.0.2 mixed.test
		127.0.0.1 mixed.test
		::1 v6loop.test
		::ffff:127.0.0.1 mapped.test
		127.0.0.2 www.sni.test
		127.0.0.2 admin.test
		127.0.0.2 secret.cdn.test
		127.0.0.3 vault.cdn.test
		127.0.0.4 www.edge.test
		127.0.0.5 secret.edge.test
		127.0.0.6 dual.test
		127.0.0.2 dual.test
	EOF
}

# start_namespace (setup_file): the private namespace, held by a sleep
# whose pid is $NS_PID; 0 once media.test resolves in it.
start_namespace() {
	net_hosts >"$NET/hosts"
	echo "nameserver 127.0.0.53" >"$NET/resolv.conf"
	unshare -n -m sh -c 'ip link set lo up &&
		ip addr add 10.1.2.3/32 dev lo &&
		ip addr add 169.254.169.254/32 dev lo &&
		mount --bind "$1" /etc/hosts &&
		mount --bind "$3" "$(realpath /etc/resolv.conf)" &&
		echo ready >"$2" &&
		exec sleep 86400' sh "$NET/hosts" "$NET/ns.ready" \
		"$NET/resolv.conf" >"$NET/ns.err" 2>&1 3>&- &
	export NS_PID=$!
	echo "$NS_PID" >>"$NET/pids"
	wait_file "$NET/ns.ready" &&
		in_ns getent hosts media.test | grep -q '^127\.0\.0\.2 '
}

# make_media (setup_file): $NET/media (clip.mp4; play.m3u8 with two
# segments; evil.m3u8 whose segments are on evil.test; half.m3u8 whose
# second segment is), $NET/internal ($TOKEN in secret.txt and
# latest/meta-data, and copies of the media), and a self-signed
# certificate for media.test.
make_media() {
	local m="$NET/media" i="$NET/internal"
	mkdir -p "$m" "$i/latest"
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=media.test \
		-keyout "$NET/key.pem" -out "$NET/cert.pem" 2>/dev/null
	ffmpeg -nostdin -v error -f lavfi -i testsrc=duration=1:size=64x48:rate=10 \
		-c:v mpeg4 -movflags +faststart "$m/clip.mp4"
	# mpeg2video: mpeg4 part 2 segments do not decode on their own.
	ffmpeg -nostdin -v error -f lavfi -i testsrc=duration=1:size=64x48:rate=10 \
		-c:v mpeg2video -g 5 -f hls -hls_time 0.5 -hls_list_size 0 \
		-hls_segment_filename "$m/seg%d.ts" "$m/play.m3u8"
	[ "$(grep -c '^seg' "$m/play.m3u8")" -eq 2 ]
	sed 's|^seg|http://evil.test/seg|' "$m/play.m3u8" >"$m/evil.m3u8"
	sed 's|^seg1|http://evil.test/seg1|' "$m/play.m3u8" >"$m/half.m3u8"
	export TOKEN="TOKEN_$RANDOM$RANDOM"
	printf '1\n00:00:00,000 --> 00:00:01,000\n%s\n\n' "$TOKEN" >"$i/secret.txt"
	cp "$i/secret.txt" "$i/latest/meta-data"
	cp "$m/clip.mp4" "$m"/seg*.ts "$i/"
	for h in www.sni.test admin.test www.cdn.test secret.cdn.test \
		www.edge.test secret.edge.test; do
		mkdir -p "$NET/vhosts/$h"
		printf '1\n00:00:00,000 --> 00:00:01,000\nPUBLIC %s\n\n' "$h" \
			>"$NET/vhosts/$h/public.txt"
	done
	cp "$i/secret.txt" "$NET/vhosts/admin.test/"
	cp "$i/secret.txt" "$NET/vhosts/secret.cdn.test/"
	cp "$i/secret.txt" "$NET/vhosts/secret.edge.test/"
}

# start_origin NAME BIND PORT ROOT LOG [--tls CERT KEY] (setup_file):
# test/origin.py in the namespace; its port is then in $NET/NAME.port.
start_origin() {
	local name=$1 bind=$2 port=$3 root=$4 log=$5
	shift 5
	nsenter -t "$NS_PID" -n -m -- "$PYTHON" "$BATS_TEST_DIRNAME/origin.py" \
		--bind "$bind" --port "$port" --portfile "$NET/$name.port" \
		--root "$root" --log "$log" "$@" >>"$NET/$name.err" 2>&1 3>&- &
	echo $! >>"$NET/pids"
	wait_file "$NET/$name.port"
}

# start_origins (setup_file): the origins of the header comment.
start_origins() {
	local tls=(--tls "$NET/cert.pem" "$NET/key.pem") a
	export ORIGIN_LOG="$NET/origin.log" SECRET_LOG="$NET/secret.log"
	: >"$ORIGIN_LOG"
	: >"$SECRET_LOG"
	start_origin http 127.0.0.2 0 "$NET/media" "$ORIGIN_LOG"
	start_origin https 127.0.0.2 0 "$NET/media" "$ORIGIN_LOG" "${tls[@]}"
	start_origin http80 127.0.0.2 80 "$NET/media" "$ORIGIN_LOG"
	start_origin https443 127.0.0.2 443 "$NET/media" "$ORIGIN_LOG" "${tls[@]}"
	for a in 127.0.0.1 ::1 10.1.2.3 169.254.169.254; do
		start_origin "internal-$a" "$a" 80 "$NET/internal" "$SECRET_LOG"
	done
	HTTP_PORT=$(cat "$NET/http.port")
	TLS_PORT=$(cat "$NET/https.port")
	export VHOST_LOG="$NET/vhost.log"
	: >"$VHOST_LOG"
	start_origin sni 127.0.0.2 0 "$NET/vhosts" "$VHOST_LOG" "${tls[@]}" \
		--vhosts sni
	start_origin front 127.0.0.2 0 "$NET/vhosts" "$VHOST_LOG" "${tls[@]}" \
		--vhosts host
	start_origin hrr 127.0.0.2 0 "$NET/vhosts" "$VHOST_LOG" "${tls[@]}" \
		--vhosts sni --curve prime256v1
	start_origin vault 127.0.0.3 "$HTTP_PORT" "$NET/media" "$ORIGIN_LOG"
	SNI_PORT=$(cat "$NET/sni.port")
	FRONT_PORT=$(cat "$NET/front.port")
	HRR_PORT=$(cat "$NET/hrr.port")
	start_edge
	export DNS_LOG="$NET/dns.log"
	: >"$DNS_LOG"
	nsenter -t "$NS_PID" -n -m -- "$PYTHON" "$BATS_TEST_DIRNAME/dns.py" \
		--bind 127.0.0.53 --log "$DNS_LOG" --ready "$NET/dns.ready" \
		>>"$NET/dns.err" 2>&1 3>&- &
	echo $! >>"$NET/pids"
	wait_file "$NET/dns.ready"
	nsenter -t "$NS_PID" -n -m -- "$PYTHON" "$BATS_TEST_DIRNAME/deadport.py" \
		127.0.0.6 "$HTTP_PORT" "$NET/dead.ready" >>"$NET/dead.err" 2>&1 3>&- &
	echo $! >>"$NET/pids"
	wait_file "$NET/dead.ready"
	export HTTP_PORT TLS_PORT SNI_PORT FRONT_PORT HRR_PORT
}

# start_edge (setup_file): the front end of www.edge.test and
# secret.edge.test, on the address of each, https and plain http.
start_edge() {
	local tls=(--tls "$NET/cert.pem" "$NET/key.pem")
	start_origin edge 127.0.0.4 0 "$NET/vhosts" "$VHOST_LOG" "${tls[@]}" \
		--vhosts host
	EDGE_TLS_PORT=$(cat "$NET/edge.port")
	start_origin edge2 127.0.0.5 "$EDGE_TLS_PORT" "$NET/vhosts" \
		"$VHOST_LOG" "${tls[@]}" --vhosts host
	start_origin edgeh 127.0.0.4 0 "$NET/vhosts" "$VHOST_LOG" --vhosts host
	EDGE_HTTP_PORT=$(cat "$NET/edgeh.port")
	start_origin edgeh2 127.0.0.5 "$EDGE_HTTP_PORT" "$NET/vhosts" \
		"$VHOST_LOG" --vhosts host
	export EDGE_TLS_PORT EDGE_HTTP_PORT
}

# host_policy, none_policy: the test policy with network "host" or the
# default "none"; allow_policy ALLOW [ADDRESSES [DENY]]: with the
# allow-list, each argument the members of its array (JSON), ADDRESSES
# "127.0.0.2/32" unless given. All with a 20 s time limit.
host_policy() {
	policy ", \"network\": \"host\", $LIMITS"
}
none_policy() {
	policy ", $LIMITS"
}
allow_policy() {
	local deny=
	[ -z "${3:-}" ] || deny=", \"deny\": [$3]"
	policy ", \"network\": {\"allow\": [$1]$deny,
	  \"allowAddresses\": [${2-\"127.0.0.2/32\"}]}, $LIMITS"
}

# probe PROG URL: PROG (ffprobe, or "$BIN/ffprobe") prints nb_streams of
# URL (1 for the media), in the namespace.
probe() {
	in_ns "$1" -v error -rw_timeout 5000000 \
		-show_entries format=nb_streams -of csv=p=0 "$2"
}

# show_format PROG URL: PROG -show_format URL, in the namespace.
show_format() {
	in_ns "$1" -v error -rw_timeout 5000000 -show_format "$2"
}

# leak PROG URL: PROG (ffmpeg or "$BIN/ffmpeg") reads URL as subtitles
# and prints them: $TOKEN when it reached an internal service.
leak() {
	in_ns "$1" -nostdin -v error -rw_timeout 5000000 -i "$2" -f srt -
}

# packets PROG URL: the video packets PROG (ffprobe) reads from URL.
# (The streams of the HLS program are listed twice: read the top list.)
packets() {
	local out
	out=$(in_ns "$1" -v error -rw_timeout 5000000 -count_packets \
		-select_streams v:0 -show_entries stream=nb_read_packets \
		-of json "$2") || return
	"$PYTHON" -c 'import json, sys
s = json.load(sys.stdin).get("streams", [])
print(s[0]["nb_read_packets"] if s else 0)' <<<"$out"
}

# hits [LOG]: requests the internal services ($SECRET_LOG) or LOG have
# had. An origin logs a request before it answers, and sbexec's proxy
# ends with sbexec: once the command is done, no request is on its way.
hits() {
	wc -l <"${1:-$SECRET_LOG}"
}

# mark_audit: later net_counts and assert_* look only at audit lines
# written after this.
mark_audit() {
	AUDIT_MARK=0
	[ ! -f "$AUDIT" ] || AUDIT_MARK=$(wc -l <"$AUDIT")
}

# net_counts NEEDLE [PORT]: "ALLOWED REFUSED", how many net records since
# mark_audit name NEEDLE (in host, address or reason, or in the target
# when host is null) and are allowed with bytesDown > 0, or refused;
# with PORT, only records of that port.
net_counts() {
	"$PYTHON" - "$AUDIT" "${AUDIT_MARK:-0}" "$@" <<-'EOF'
		import json, sys
		path, mark, needle = sys.argv[1:4]
		port = int(sys.argv[4]) if len(sys.argv) > 4 else None
		try:
		    lines = open(path).read().splitlines()[int(mark):]
		except FileNotFoundError:
		    lines = []
		allowed = refused = 0
		for line in lines:
		    r = json.loads(line)
		    if r["type"] != "net" or (port and r.get("port") != port):
		        continue
		    where = [r.get("host"), r.get("address"), r.get("reason")]
		    if r.get("host") is None:
		        where.append(r.get("target"))
		    if not any(needle in str(w) for w in where if w is not None):
		        continue
		    allowed += r["allowed"] is True and r["bytesDown"] > 0
		    refused += r["allowed"] is False
		print(allowed, refused)
	EOF
}

# net_tail: the last audit lines, for a failure message.
net_tail() {
	tail -n 4 "$AUDIT" 2>/dev/null || echo "(no audit file)"
}

# assert_allowed NEEDLE [PORT]: an allowed net record for NEEDLE, with
# bytes down, since mark_audit.
assert_allowed() {
	local n
	n=$(net_counts "$@")
	[ "${n% *}" -ge 1 ] ||
		fail "no allowed net record with bytesDown > 0 for $* since the run; audit: $(net_tail)"
}

# assert_refused NEEDLE: a refused net record names NEEDLE since
# mark_audit, and no allowed one does.
assert_refused() {
	local n
	n=$(net_counts "$1")
	[ "${n#* }" -ge 1 ] ||
		fail "no net record with \"allowed\":false naming $1; audit: $(net_tail)"
	[ "${n% *}" -eq 0 ] ||
		fail "an allowed net record names $1; audit: $(net_tail)"
}

# assert_command_failed: the last run was the command's own failure
# (1-123), not sbexec refusing the policy or the command (125, 126).
assert_command_failed() {
	[ "$status" -ge 1 ] && [ "$status" -le 123 ] ||
		fail "expected the command's own failure, got status $status: $output"
}

# assert_leak_stopped URL NEEDLE: through sbexec, with the allow-list
# already written, URL yields no token and no request at the internal
# services, and a refused net record names NEEDLE.
assert_leak_stopped() {
	local before
	before=$(hits)
	mark_audit
	run leak "$BIN/ffmpeg" "$1"
	assert_command_failed
	refute_output --partial "$TOKEN"
	assert_equal "$(hits)" "$before"
	assert_refused "$2"
}

# assert_leaks_with_host URL: with network "host", ffmpeg through sbexec
# prints the token from URL (the attack works).
assert_leaks_with_host() {
	host_policy
	run leak "$BIN/ffmpeg" "$1"
	assert_success
	assert_output --partial "$TOKEN"
}

# assert_name_refused NAME: NAME resolves to an internal service. With
# network "host", http://NAME/secret.txt gives the token through sbexec;
# with NAME allowed by name but only 127.0.0.2/32 by address, it does
# not, while media.test (allowed, 127.0.0.2) still works.
assert_name_refused() {
	local url="http://$1/secret.txt"
	assert_leaks_with_host "$url"
	allow_policy "\"$1\", \"media.test\""
	assert_leak_stopped "$url" "$1"
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	assert_output 1
}

# recorder tcp|udp|unix: a socat listener in the namespace on 127.0.0.1
# (a free port, in $REC_PORT) or at $REC_SOCK, appending to $REC_LOG
# "conn" for each connection (tcp, unix) or the bytes received (udp).
recorder() {
	REC_LOG="$T/recorder.log"
	REC_SOCK="$T/service.sock"
	: >"$REC_LOG"
	REC_PORT=$(in_ns "$PYTHON" -c 'import socket, sys
s = socket.socket(socket.AF_INET, getattr(socket, sys.argv[1]))
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
		"$([ "$1" = udp ] && echo SOCK_DGRAM || echo SOCK_STREAM)")
	local addr
	case $1 in
	tcp) addr="TCP-LISTEN:$REC_PORT,bind=127.0.0.1,reuseaddr,fork" ;;
	udp) addr="UDP-RECV:$REC_PORT,bind=127.0.0.1" ;;
	unix) addr="UNIX-LISTEN:$REC_SOCK,unlink-early,fork" ;;
	esac
	if [ "$1" = udp ]; then
		nsenter -t "$NS_PID" -n -m -- socat -u "$addr" \
			"OPEN:$REC_LOG,append" >>"$T/socat.err" 2>&1 3>&- &
	else
		nsenter -t "$NS_PID" -n -m -- socat "$addr" \
			SYSTEM:"echo conn >>'$REC_LOG'" >>"$T/socat.err" 2>&1 3>&- &
	fi
	PIDS+=($!)
	local _
	for _ in $(seq 100); do
		case $1 in
		tcp) in_ns ss -Hltn "sport = :$REC_PORT" | grep -q . && return 0 ;;
		udp) in_ns ss -Hlun "sport = :$REC_PORT" | grep -q . && return 0 ;;
		unix) [ -S "$REC_SOCK" ] && return 0 ;;
		esac
		sleep 0.05
	done
	fail "the $1 recorder did not start: $(cat "$T/socat.err")"
}

# recorded: the bytes in $REC_LOG (5 a connection, "conn\n"), once
# socat's child has had the time to write.
recorded() {
	sleep 0.2
	wc -c <"$REC_LOG"
}

# ------------------------------------------------- none and host, as before

@test "network none: sbexec cannot reach the http origin (as before)" {
	local url="http://media.test:$HTTP_PORT/clip.mp4"
	run -0 probe ffprobe "$url"
	assert_output 1
	none_policy
	local before
	before=$(hits "$ORIGIN_LOG")
	run probe "$BIN/ffprobe" "$url"
	assert_command_failed
	refute_output 1
	assert_equal "$(hits "$ORIGIN_LOG")" "$before"
}

@test "network host: sbexec reaches the http origin and the internal service (as before)" {
	host_policy
	run -0 probe "$BIN/ffprobe" "http://media.test:$HTTP_PORT/clip.mp4"
	assert_output 1
	assert_leaks_with_host "http://evil.test/secret.txt"
	run in_ns "$SBEXEC" sh -c 'echo "[${http_proxy-unset}]"'
	assert_output "[unset]"
}

# ------------------------------------------------------------- allowed

@test "allow-list: an allowed http URL works through the ffprobe symlink, as ffprobe alone sees it" {
	local url="http://media.test:$HTTP_PORT/clip.mp4" direct before
	run -0 show_format ffprobe "$url"
	assert_line nb_streams=1
	direct=$output
	allow_policy "\"media.test:$HTTP_PORT\""
	before=$(grep -c " media.test:$HTTP_PORT\$" "$ORIGIN_LOG")
	mark_audit
	run -0 show_format "$BIN/ffprobe" "$url"
	assert_equal "$output" "$direct"
	assert_allowed media.test "$HTTP_PORT"
	[ "$(grep -c " media.test:$HTTP_PORT\$" "$ORIGIN_LOG")" -gt "$before" ]
	run audit_get net 'r["method"] in ("GET", "HEAD") and r["address"]'
	assert_output '"127.0.0.2"'
}

@test "allow-list: a name whose first address takes no connection is reached at the next (Happy Eyeballs), as ffprobe alone reaches it; the record names the address used" {
	local url="http://dual.test:$HTTP_PORT/clip.mp4"
	# The control: the first address times out, ffprobe alone gets on.
	run -124 in_ns timeout 2 "$PYTHON" -c 'import socket, sys
socket.create_connection(("127.0.0.6", int(sys.argv[1])), timeout=5)' \
		"$HTTP_PORT"
	run -0 probe ffprobe "$url"
	assert_output 1
	allow_policy "\"dual.test:$HTTP_PORT\"" '"127.0.0.2/32", "127.0.0.6/32"'
	mark_audit
	run -0 probe "$BIN/ffprobe" "$url"
	assert_output 1
	run audit_get net '[r["host"], r["address"], r["allowed"]]'
	assert_output '["dual.test", "127.0.0.2", true]'
}

@test "lookups: a request's host and its 20 denied names are looked up at once, at most 16 at a time, each once in a run of 3 requests" {
	local deny= i url="http://media.slow.test:$HTTP_PORT/play.m3u8" max
	# The control: ffprobe alone finds the name through dns.py.
	run -0 packets ffprobe "$url"
	assert_output 10
	grep -q '^media.slow.test 1 ' "$DNS_LOG"
	for i in $(seq 20); do deny+="${deny:+, }\"d$i.slow.test\""; done
	allow_policy "\"media.slow.test:$HTTP_PORT\"" '"127.0.0.2/32"' "$deny"
	: >"$DNS_LOG"
	run -0 packets "$BIN/ffprobe" "$url"
	assert_output 10
	[ "$(audit_get net 'r["host"]')" = '"media.slow.test"' ]
	[ "$(grep -c '"type":"net"' "$AUDIT")" -ge 3 ]	# playlist, 2 segments
	for i in media $(seq 20 | sed 's/^/d/'); do
		[ "$(grep -c "^$i.slow.test 1 " "$DNS_LOG")" -eq 1 ] ||
			fail "$i.slow.test: $(grep -c "^$i.slow.test 1 " "$DNS_LOG") A queries"
	done
	max=$(awk '$3 > m { m = $3 } END { print m + 0 }' "$DNS_LOG")
	[ "$max" -ge 4 ] || fail "at most $max queries at once: sequential"
	# dns.c asks A and AAAA at once: two queries a lookup.
	[ "$max" -le 32 ] || fail "$max queries at once: more than 16 lookups"
}

@test "lookups: a name with fewer dots than ndots goes through resolv.conf's search list in order, as the C library takes it" {
	local url="http://media:$HTTP_PORT/clip.mp4" saved
	saved=$(cat "$NET/resolv.conf")
	# In place: the namespace's /etc/resolv.conf is this file, bound.
	echo "search nowhere.test slow.test" >>"$NET/resolv.conf"
	run -0 probe ffprobe "$url"	# the control: ffprobe alone
	local direct=$output
	allow_policy "\"media:$HTTP_PORT\""
	: >"$DNS_LOG"
	run probe "$BIN/ffprobe" "$url"
	echo "$saved" >"$NET/resolv.conf"
	assert_equal "$direct" 1
	assert_success
	assert_output 1
	grep -q '^media.nowhere.test 1 ' "$DNS_LOG"
	grep -q '^media.slow.test 1 ' "$DNS_LOG"
	refute grep -q '^media 1 ' "$DNS_LOG"	# found before the bare name
}

# any_reply NAME: the A record of the first datagram that comes back
# to a query for NAME sent to dns.py, from wherever and whatever it
# answers: what a client that checks nothing would take.
any_reply() {
	in_ns "$PYTHON" -c 'import socket, struct, sys
name = sys.argv[1].encode()
q = struct.pack("!6H", 0x1234, 0x0100, 1, 0, 0, 0)
q += b"".join(bytes([len(l)]) + l for l in name.split(b".")) + b"\0"
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(q + struct.pack("!HH", 1, 1), ("127.0.0.53", 53))
print(socket.inet_ntoa(s.recvfrom(512)[0][-4:]))' "$1"
}

@test "lookups: a reply from another port, with another id or to another question is not taken, as the nameserver's own is" {
	local saved mode got=()
	saved=$(cat "$NET/resolv.conf")
	# The control: each bad reply is there, with the allowed address.
	for mode in spoof badid badq; do
		run -0 any_reply "media.$mode.test"
		assert_output 127.0.0.2
	done
	echo "options timeout:1 attempts:1" >>"$NET/resolv.conf"
	for mode in spoof badid badq; do
		allow_policy "\"media.$mode.test:$HTTP_PORT\""
		mark_audit
		run probe "$BIN/ffprobe" "http://media.$mode.test:$HTTP_PORT/clip.mp4"
		got+=("$status $(audit_get net '[r["host"], r["allowed"], r["bytesDown"], r.get("address"), "error" in r]')")
	done
	# With the same options, the nameserver's own reply is taken.
	allow_policy "\"media.slow.test:$HTTP_PORT\""
	run probe "$BIN/ffprobe" "http://media.slow.test:$HTTP_PORT/clip.mp4"
	echo "$saved" >"$NET/resolv.conf"
	assert_success
	assert_output 1
	for mode in spoof badid badq; do
		[[ "${got[0]}" != 0\ * ]] || fail "media.$mode.test: ffprobe succeeded"
		assert_equal "${got[0]#* }" "[\"media.$mode.test\", true, 0, null, true]"
		got=("${got[@]:1}")
	done
}

@test "allow-list: an allowed https URL works through CONNECT, as ffprobe alone sees it" {
	local url="https://media.test:$TLS_PORT/clip.mp4" direct
	run -0 show_format ffprobe "$url"
	assert_line nb_streams=1
	direct=$output
	allow_policy "\"media.test:$TLS_PORT\""
	mark_audit
	run -0 show_format "$BIN/ffprobe" "$url"
	assert_equal "$output" "$direct"
	assert_allowed media.test "$TLS_PORT"
	run audit_get net '[r["method"], r["host"], r["port"]]'
	assert_output "[\"CONNECT\", \"media.test\", $TLS_PORT]"
}

@test "allow-list: an entry without :port allows 80 for GET and 443 for CONNECT, no other port" {
	allow_policy '"media.test"'
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	assert_output 1
	run -0 probe "$BIN/ffprobe" "https://media.test/clip.mp4"
	assert_output 1
	local url before
	for url in "http://media.test:$HTTP_PORT/clip.mp4?port" \
	    "https://media.test:$TLS_PORT/clip.mp4?port"; do
		run -0 probe ffprobe "$url"
		before=$(grep -c 'clip.mp4?port' "$ORIGIN_LOG")
		mark_audit
		run probe "$BIN/ffprobe" "$url"
		assert_command_failed
		refute_output 1
		assert_equal "$(grep -c 'clip.mp4?port' "$ORIGIN_LOG")" "$before"
		assert_refused media.test
	done
}

@test "allow-list: inside, http_proxy=http://127.0.0.1:3128 whatever the host sets, and no no_proxy" {
	allow_policy "\"media.test:$HTTP_PORT\""
	http_proxy=http://10.9.9.9:1 no_proxy='*' NO_PROXY='*' \
		run -0 in_ns "$SBEXEC" sh -c env
	assert_line "http_proxy=http://127.0.0.1:3128"
	refute_line --regexp '^(no_proxy|NO_PROXY)='
	# Even where the policy passes the host's names through (or refuses
	# such a policy): never the host's proxy, never a bypass.
	policy ", \"envAllowList\": [\"PATH\", \"http_proxy\", \"no_proxy\"],
	  \"network\": {\"allow\": [\"media.test\"]}, $LIMITS"
	http_proxy=http://10.9.9.9:1 no_proxy='*' \
		run in_ns "$SBEXEC" sh -c env
	if [ "$status" -ne 125 ]; then
		assert_success
		assert_line "http_proxy=http://127.0.0.1:3128"
		refute_line --regexp '^no_proxy='
	fi
}

@test "allow-list: an HLS playlist and its segments on the allowed origin play" {
	local url="http://media.test:$HTTP_PORT/play.m3u8"
	run -0 packets ffprobe "$url"
	assert_output 10
	allow_policy "\"media.test:$HTTP_PORT\""
	mark_audit
	run -0 packets "$BIN/ffprobe" "$url"
	assert_output 10
	assert_allowed media.test "$HTTP_PORT"
}

# ------------------------------------------------------------ by name

@test "allow-list: deny wins over allow (*.cdn.test allowed, vault.cdn.test denied)" {
	local url="http://vault.cdn.test:$HTTP_PORT/clip.mp4"
	host_policy
	run -0 probe "$BIN/ffprobe" "$url"
	assert_output 1
	# vault.cdn.test is on an address of its own: the others pass.
	allow_policy "\"*.cdn.test:$HTTP_PORT\"" '"127.0.0.2/32", "127.0.0.3/32"' \
		'"vault.cdn.test"'
	run -0 probe "$BIN/ffprobe" "http://img.cdn.test:$HTTP_PORT/clip.mp4"
	assert_output 1
	mark_audit
	run probe "$BIN/ffprobe" "$url"
	assert_command_failed
	refute_output 1
	assert_refused vault.cdn.test
}

@test "allow-list: a host not on the list is refused" {
	local url="http://other.test:$HTTP_PORT/clip.mp4"
	host_policy
	run -0 probe "$BIN/ffprobe" "$url"
	assert_output 1
	allow_policy "\"media.test:$HTTP_PORT\""
	run -0 probe "$BIN/ffprobe" "http://media.test:$HTTP_PORT/clip.mp4"
	mark_audit
	run probe "$BIN/ffprobe" "$url"
	assert_command_failed
	refute_output 1
	assert_refused other.test
}

@test "allow-list: *.cdn.test matches www.cdn.test, not cdn.test itself" {
	local url="http://cdn.test:$HTTP_PORT/clip.mp4"
	host_policy
	run -0 probe "$BIN/ffprobe" "$url"
	assert_output 1
	allow_policy "\"*.cdn.test:$HTTP_PORT\""
	run -0 probe "$BIN/ffprobe" "http://www.cdn.test:$HTTP_PORT/clip.mp4"
	assert_output 1
	mark_audit
	run probe "$BIN/ffprobe" "$url"
	assert_command_failed
	refute_output 1
	assert_refused cdn.test
}

# ------------------------------------------- redirects and playlists

@test "allow-list: a redirect from the allowed origin to evil.test (127.0.0.1) is refused" {
	local url="http://media.test:$HTTP_PORT/redirect?to=http://evil.test/secret.txt"
	assert_leaks_with_host "$url"
	allow_policy "\"media.test:$HTTP_PORT\""
	assert_leak_stopped "$url" evil.test
	assert_allowed media.test "$HTTP_PORT"
}

@test "allow-list: a redirect to http://169.254.169.254/latest/meta-data/ is refused" {
	local url="http://media.test:$HTTP_PORT/redirect?to=http://169.254.169.254/latest/meta-data/"
	assert_leaks_with_host "$url"
	grep -q '^GET /latest/meta-data/ 169.254.169.254$' "$SECRET_LOG"
	allow_policy "\"media.test:$HTTP_PORT\""
	assert_leak_stopped "$url" 169.254.169.254
	assert_allowed media.test "$HTTP_PORT"
}

@test "allow-list: HLS segments on evil.test (127.0.0.1) are refused" {
	local url="http://media.test:$HTTP_PORT/evil.m3u8" before
	host_policy
	before=$(hits)
	run -0 packets "$BIN/ffprobe" "$url"
	assert_output 10
	[ "$(hits)" -gt "$before" ]
	grep -q '^GET /seg0.ts evil.test$' "$SECRET_LOG"
	allow_policy "\"media.test:$HTTP_PORT\""
	before=$(hits)
	mark_audit
	run packets "$BIN/ffprobe" "$url"
	[ "$status" -ne 0 ] || [ -z "$output" ] || [ "$output" = 0 ] ||
		fail "read $output packets from segments on evil.test"
	[ "$status" -lt 124 ] || fail "sbexec refused the run: $output"
	assert_equal "$(hits)" "$before"
	assert_refused evil.test
	assert_allowed media.test "$HTTP_PORT"
	# The first segment on the origin, the second on evil.test: only the
	# first is read.
	mark_audit
	run packets "$BIN/ffprobe" "http://media.test:$HTTP_PORT/half.m3u8"
	[ "$status" -lt 124 ] || fail "sbexec refused the run: $output"
	refute_output 10
	assert_equal "$(hits)" "$before"
	assert_refused evil.test
}

# ---------------------------------------------------------- IP literals

@test "allow-list: 127.0.0.1 in any spelling (plain, user-info, decimal, octal, hex, IPv6-mapped) is refused" {
	local urls=(http://127.0.0.1/secret.txt
		http://media.test@127.0.0.1/secret.txt
		http://2130706433/secret.txt
		http://0177.0.0.1/secret.txt
		http://0x7f.0.0.1/secret.txt
		'http://[::ffff:127.0.0.1]/secret.txt')
	local needles=(127.0.0.1 127.0.0.1 2130706433 0177.0.0.1 0x7f.0.0.1
		::ffff:127.0.0.1)
	local i
	for i in "${!urls[@]}"; do
		assert_leaks_with_host "${urls[$i]}"
	done
	# media.test (port 80) is allowed: the user-info names it.
	allow_policy '"media.test"'
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	for i in "${!urls[@]}"; do
		assert_leak_stopped "${urls[$i]}" "${needles[$i]}"
	done
}

@test "allow-list: an IP literal is refused even for an allowed address (names only)" {
	local urls=("http://127.0.0.2:$HTTP_PORT/clip.mp4?literal"
		"http://2130706434:$HTTP_PORT/clip.mp4?literal"
		"https://[::ffff:127.0.0.2]:$TLS_PORT/clip.mp4?literal")
	local needles=(127.0.0.2 2130706434 ::ffff:127.0.0.2) i before
	host_policy
	for i in "${!urls[@]}"; do
		run -0 probe "$BIN/ffprobe" "${urls[$i]}"
		assert_output 1
	done
	allow_policy "\"media.test:$HTTP_PORT\", \"media.test:$TLS_PORT\""
	for i in "${!urls[@]}"; do
		before=$(grep -c 'clip.mp4?literal' "$ORIGIN_LOG")
		mark_audit
		run probe "$BIN/ffprobe" "${urls[$i]}"
		assert_command_failed
		refute_output 1
		assert_equal "$(grep -c 'clip.mp4?literal' "$ORIGIN_LOG")" "$before"
		assert_refused "${needles[$i]}"
	done
}

# ------------------------------------------- names resolving to inside

@test "allow-list: evil.test (127.0.0.1, loopback) is refused though allowed by name" {
	assert_name_refused evil.test
}

@test "allow-list: lan.test (10.1.2.3, private) is refused though allowed by name" {
	assert_name_refused lan.test
}

@test "allow-list: meta.test (169.254.169.254, link-local) is refused though allowed by name" {
	assert_name_refused meta.test
}

@test "allow-list: v6loop.test (::1) is refused though allowed by name" {
	assert_name_refused v6loop.test
}

@test "allow-list: mapped.test (::ffff:127.0.0.1) is refused though allowed by name" {
	assert_name_refused mapped.test
}

@test "allow-list: mixed.test (127.0.0.2 and 127.0.0.1) is refused: any bad address refuses" {
	local url="http://mixed.test/clip.mp4?mixed" before
	host_policy
	run -0 probe "$BIN/ffprobe" "$url"
	assert_output 1
	allow_policy '"mixed.test", "media.test"'
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	before=$(cat "$ORIGIN_LOG" "$SECRET_LOG" | grep -c 'clip.mp4?mixed')
	mark_audit
	run probe "$BIN/ffprobe" "$url"
	assert_command_failed
	refute_output 1
	assert_equal "$(cat "$ORIGIN_LOG" "$SECRET_LOG" | grep -c 'clip.mp4?mixed')" "$before"
	assert_refused mixed.test
}

# --------------------------------------------- protocols past the proxy

@test "allow-list: tcp: and rtmp: ignore the proxy and reach nothing (network host: they do)" {
	recorder tcp
	host_policy
	run in_ns "$BIN/ffmpeg" -nostdin -v error -rw_timeout 5000000 \
		-i "tcp://127.0.0.1:$REC_PORT" -f null -
	run in_ns "$BIN/ffmpeg" -nostdin -v error -rw_timeout 5000000 \
		-i "rtmp://127.0.0.1:$REC_PORT/x" -f null -
	assert_equal "$(recorded)" 10 # two connections
	allow_policy '"media.test"'
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	run in_ns "$BIN/ffmpeg" -nostdin -v error -rw_timeout 5000000 \
		-i "tcp://127.0.0.1:$REC_PORT" -f null -
	assert_command_failed
	run in_ns "$BIN/ffmpeg" -nostdin -v error -rw_timeout 5000000 \
		-i "rtmp://127.0.0.1:$REC_PORT/x" -f null -
	assert_command_failed
	assert_equal "$(recorded)" 10
}

@test "allow-list: udp: ignores the proxy; its datagrams stay in the sandbox (network host: they arrive)" {
	recorder udp
	host_policy
	run in_ns "$BIN/ffmpeg" -nostdin -v error -f lavfi \
		-i testsrc=duration=0.2:size=64x48:rate=10 -f mpegts \
		"udp://127.0.0.1:$REC_PORT"
	local got
	got=$(recorded)
	[ "$got" -gt 0 ]
	allow_policy '"media.test"'
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	run in_ns "$BIN/ffmpeg" -nostdin -v error -f lavfi \
		-i testsrc=duration=0.2:size=64x48:rate=10 -f mpegts \
		"udp://127.0.0.1:$REC_PORT"
	[ "$status" -lt 124 ] || fail "sbexec refused the run: $output"
	assert_equal "$(recorded)" "$got"
}

@test "allow-list: unix: reaches a host socket directly, not through sbexec" {
	recorder unix
	run in_ns ffmpeg -nostdin -v error -rw_timeout 5000000 \
		-i "unix:$REC_SOCK" -f null -
	assert_equal "$(recorded)" 5
	allow_policy '"media.test"'
	run -0 probe "$BIN/ffprobe" "http://media.test/clip.mp4"
	run in_ns "$BIN/ffmpeg" -nostdin -v error -rw_timeout 5000000 \
		-i "unix:$REC_SOCK" -f null -
	assert_command_failed
	assert_output --partial "Operation not permitted"
	assert_equal "$(recorded)" 5
}

# --------------------------------------- native code talks to the proxy

# The command may be native code: it speaks to the proxy directly.
# talk.py sends each raw request on its own connection and prints the
# status line of the answer.
# Native code inside (attack, helper.bash: -af ladspa=file= loads
# payload.so from the policy's execPaths), opening its own TCP connections:
# under the allow-list the namespace has no route but to its own
# loopback, where only the proxy listens.
@test "allow-list: native code's own TCP connections past the proxy reach nothing (network host: they do)" {
	build_probes
	ff_ns() { in_ns "$BIN/ffmpeg" "$@"; }
	local probes=("tcp:127.0.0.2:$HTTP_PORT" "tcp:10.1.2.3:80" "tcp:169.254.169.254:80")
	local rw='"filesystem": {"allowWrite": ["."]}'
	policy ", \"network\": \"host\", $rw, $LIMITS"
	run attack ff_ns "${probes[@]}"
	assert_equal "$(grep -c '^tcp=OK$' <<<"$output")" 3
	policy ", \"network\": {\"allow\": [\"media.test:$HTTP_PORT\"],
	  \"allowAddresses\": [\"127.0.0.0/8\", \"10.0.0.0/8\", \"169.254.0.0/16\"]},
	  $rw, $LIMITS"
	run attack ff_ns "${probes[@]}"
	assert_equal "$(grep -c '^tcp=E[A-Z]*$' <<<"$output")" 3
	refute_line 'tcp=OK'
}

@test "allow-list: raw requests to the proxy: only absolute GET/HEAD and CONNECT to allowed hosts pass" {
	talk_py
	allow_policy "\"media.test:$HTTP_PORT\""
	local h="media.test:$HTTP_PORT" before
	before=$(hits)
	run -0 --separate-stderr in_ns "$SBEXEC" sh -c '/usr/bin/python3 talk.py "$@"' sh \
		"GET http://$h/clip.mp4?talk=get HTTP/1.1\r\nHost: $h\r\n\r\n" \
		"HEAD http://$h/clip.mp4?talk=head HTTP/1.1\r\nHost: $h\r\n\r\n" \
		"POST http://$h/clip.mp4?talk=post HTTP/1.1\r\nHost: $h\r\nContent-Length: 0\r\n\r\n" \
		"GET /clip.mp4?talk=origin-form HTTP/1.1\r\nHost: $h\r\n\r\n" \
		"GET http://evil.test/secret.txt?talk=evil HTTP/1.1\r\nHost: evil.test\r\n\r\n" \
		"GET http://media.test@127.0.0.1/secret.txt?talk=userinfo HTTP/1.1\r\nHost: evil.test\r\n\r\n" \
		"CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n" \
		"CONNECT evil.test:80 HTTP/1.1\r\nHost: evil.test:80\r\n\r\n" \
		"GET http://$h/clip.mp4?talk=first HTTP/1.1\r\nHost: $h\r\n\r\nGET http://evil.test/secret.txt?talk=second HTTP/1.1\r\nHost: evil.test\r\n\r\n"
	[ "${#lines[@]}" -eq 9 ] || fail "9 status lines expected: $output"
	assert_line --index 0 --regexp '^HTTP/1\.[01] 200 '
	assert_line --index 1 --regexp '^HTTP/1\.[01] 200 '
	local i
	for i in 2 3 4 5 6 7; do
		assert_line --index "$i" --regexp '^HTTP/1\.[01] 4[0-9][0-9] '
	done
	grep -q '^GET /clip.mp4?talk=get ' "$ORIGIN_LOG"
	grep -q '^HEAD /clip.mp4?talk=head ' "$ORIGIN_LOG"
	run grep -E 'talk=(post|origin-form)' "$ORIGIN_LOG"
	assert_failure
	assert_equal "$(hits)" "$before"
}

# ------------------------------------------ what travels in a tunnel

# proxied.py: connect(HOST, PORT), a socket to HOST:PORT through the
# proxy's CONNECT when http_proxy is set (inside the allow-list's
# sandbox; the proxy's status line printed), else directly.
write_proxied_py() {
	cat >proxied.py <<-'EOF'
		import os, socket
		def connect(host, port):
		    if not os.environ.get("http_proxy"):
		        return socket.create_connection((host, port), timeout=10)
		    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		    s.sendall(b"CONNECT %s:%d HTTP/1.1\r\n\r\n" % (host.encode(), port))
		    head = b""
		    while b"\r\n\r\n" not in head:
		        c = s.recv(1)
		        if not c:
		            break
		        head += c
		    print("proxy:", head.split(b"\r\n")[0].decode("latin-1"))
		    return s
	EOF
}

# tunnel.py HOST PORT SNI PATH [--plain]: GET /PATH from HOST:PORT over
# TLS with SNI as the server name ("-": none) and Host, through the
# proxy's CONNECT when http_proxy is set (inside the allow-list's
# sandbox), else directly; --plain sends the GET and a pipelined POST
# with a body in clear instead, --tls12 speaks TLS 1.2 at most. Prints
# the status lines and bodies.
write_tunnel_py() {
	write_proxied_py
	cat >tunnel.py <<-'EOF'
		import ssl, sys
		from proxied import connect
		host, port, sni, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
		name = host if sni == "-" else sni
		req = ("GET /%s HTTP/1.1\r\nHost: %s\r\n\r\n" % (path, name)).encode()
		s = connect(host, port)
		try:
		    if "--plain" in sys.argv:
		        s.sendall(req + ("POST /%s HTTP/1.1\r\nHost: %s\r\nContent-Length: 4\r\n\r\nbody" % (path, name)).encode())
		    else:
		        ctx = ssl.create_default_context()
		        ctx.check_hostname = False
		        ctx.verify_mode = ssl.CERT_NONE
		        if "--tls12" in sys.argv:
		            ctx.maximum_version = ssl.TLSVersion.TLSv1_2
		        s = ctx.wrap_socket(s, server_hostname=None if sni == "-" else sni)
		        s.sendall(req.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
		    data = b""
		    while b"\r\n\r\n" not in data or len(data) < 600:
		        c = s.recv(65536)
		        if not c:
		            break
		        data += c
		    print(data.decode("latin-1"))
		except (OSError, ssl.SSLError) as e:
		    print("tunnel:", type(e).__name__)
		    sys.exit(1)
	EOF
}

# tunnel_policy NETWORK: the cwd writable; ffmpeg may start the
# payload's sh and python3 (programs).
tunnel_policy() {
	FFMPEG_PROGRAMS='["/bin/sh", "/usr/bin/python3"]' policy ", \"network\": $1,
	  \"filesystem\": {\"allowWrite\": [\".\"]}, $LIMITS"
}

# tunnel ARGS...: native code in ffmpeg through sbexec (attack,
# helper.bash) runs tunnel.py ARGS.
tunnel() {
	ff_ns() { in_ns "$BIN/ffmpeg" "$@"; }
	run attack ff_ns "run:/usr/bin/python3 tunnel.py $*"
}

# net_sni: the SNI and "allowed" of the last net record.
net_sni() {
	audit_get net '[r.get("sni"), r["allowed"]]'
}

@test "tunnel: a ClientHello naming another host than the CONNECT's is refused (native code), and the net record names the SNI" {
	build_probes
	write_tunnel_py
	tunnel_policy '"host"'
	tunnel www.sni.test "$SNI_PORT" admin.test secret.txt
	assert_output --partial "$TOKEN"
	grep -q '^GET /secret.txt admin.test admin.test$' "$VHOST_LOG"
	tunnel_policy "{\"allow\": [\"www.sni.test:$SNI_PORT\"],
	  \"allowAddresses\": [\"127.0.0.2/32\"]}"
	local before
	before=$(hits "$VHOST_LOG")
	tunnel www.sni.test "$SNI_PORT" admin.test secret.txt
	assert_line 'proxy: HTTP/1.1 200 Connection established'
	refute_output --partial "$TOKEN"
	assert_line 'run=exit 1'
	assert_equal "$(hits "$VHOST_LOG")" "$before"
	assert_equal "$(net_sni)" '["admin.test", false]'
	assert_equal "$(audit_get net 'r["host"]')" '"www.sni.test"'
	# The name the tunnel was opened for passes, and is recorded.
	tunnel www.sni.test "$SNI_PORT" www.sni.test public.txt
	assert_output --partial "PUBLIC www.sni.test"
	assert_equal "$(net_sni)" '["www.sni.test", true]'
}

@test "tunnel: a ClientHello without a server name is refused (native code)" {
	build_probes
	write_tunnel_py
	tunnel_policy '"host"'
	tunnel www.sni.test "$SNI_PORT" - public.txt
	assert_output --partial "PUBLIC www.sni.test"
	tunnel_policy "{\"allow\": [\"www.sni.test:$SNI_PORT\"],
	  \"allowAddresses\": [\"127.0.0.2/32\"]}"
	tunnel www.sni.test "$SNI_PORT" - public.txt
	assert_line 'proxy: HTTP/1.1 200 Connection established'
	refute_output --partial PUBLIC
	assert_equal "$(net_sni)" '[null, false]'
	assert_equal "$(audit_get net 'r["reason"]')" '"a ClientHello without a server name"'
}

# hrr.py HOST PORT SNI2 PATH: as tunnel.py, but the first ClientHello
# names HOST and, once the server has answered it (a HelloRetryRequest
# from the HRR_PORT origin), OpenSSL is told to name SNI2 in the second.
# Python's ssl has no call for that: the name is set on its SSL object
# through libssl itself (CPython keeps the SSL pointer after the socket
# pointer, 24 bytes into the object).
write_hrr_py() {
	write_proxied_py
	cat >hrr.py <<-'EOF'
		import ctypes, ssl, sys
		from proxied import connect
		host, port, sni2, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
		s = connect(host, port)
		ctx = ssl.create_default_context()
		ctx.check_hostname = False
		ctx.verify_mode = ssl.CERT_NONE
		inb, outb = ssl.MemoryBIO(), ssl.MemoryBIO()
		obj = ctx.wrap_bio(inb, outb, server_hostname=host)
		lib = [l.split()[-1] for l in open("/proc/self/maps") if "libssl" in l][0]
		libssl = ctypes.CDLL(lib)
		libssl.SSL_ctrl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
		ptr = ctypes.c_void_p.from_address(id(obj._sslobj) + 24).value
		def feed():
		    d = s.recv(65536)
		    if not d:
		        raise OSError("the tunnel closed")
		    return d
		def run(fn, *a):
		    while True:
		        try:
		            r = fn(*a)
		        except ssl.SSLWantReadError:
		            r = None
		        out = outb.read()
		        if out:
		            s.sendall(out)
		        if r is not None:
		            return r
		        inb.write(feed())
		try:
		    try:
		        obj.do_handshake()
		    except ssl.SSLWantReadError:
		        s.sendall(outb.read())
		    d = feed()
		    print("retry:", d[11:15].hex())
		    libssl.SSL_ctrl(ptr, 55, 0, sni2.encode())
		    inb.write(d)
		    run(lambda: obj.do_handshake() or True)
		    req = "GET /%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % (path, sni2)
		    run(obj.write, req.encode())
		    data = b""
		    while b"\r\n\r\n" not in data or len(data) < 600:
		        try:
		            c = run(obj.read, 65536)
		        except (OSError, ssl.SSLError):
		            break
		        if not c:
		            break
		        data += c
		    print(data.decode("latin-1"))
		except (OSError, ssl.SSLError) as e:
		    print("tunnel:", e)
		    sys.exit(1)
	EOF
}

# hrr ARGS...: native code in ffmpeg through sbexec runs hrr.py ARGS.
hrr() {
	ff_ns() { in_ns "$BIN/ffmpeg" "$@"; }
	run attack ff_ns "run:/usr/bin/python3 hrr.py $*"
}

# Issue 31, finding 1: the proxy read only the first ClientHello. One
# naming the allowed name drew a HelloRetryRequest, and the second,
# naming admin.test, was relayed unread; the front end picked its host
# again from it.
@test "tunnel: a second ClientHello after a HelloRetryRequest naming another host is refused (native code), and the record says why" {
	build_probes
	write_hrr_py
	tunnel_policy '"host"'
	hrr www.sni.test "$HRR_PORT" admin.test secret.txt
	assert_line 'retry: cf21ad74'
	assert_output --partial "$TOKEN"
	grep -q '^GET /secret.txt admin.test admin.test$' "$VHOST_LOG"
	tunnel_policy "{\"allow\": [\"www.sni.test:$HRR_PORT\"],
	  \"allowAddresses\": [\"127.0.0.2/32\"]}"
	local before
	before=$(hits "$VHOST_LOG")
	hrr www.sni.test "$HRR_PORT" admin.test secret.txt
	assert_line 'proxy: HTTP/1.1 200 Connection established'
	assert_line 'retry: cf21ad74'
	refute_output --partial "$TOKEN"
	assert_equal "$(hits "$VHOST_LOG")" "$before"
	assert_equal "$(net_sni)" '["admin.test", false]'
	assert_equal "$(audit_get net 'r["reason"]')" '"a TLS server name that is not the CONNECT host, after a HelloRetryRequest"'
	# The same name in both hellos passes: the retry is watched, not refused.
	hrr www.sni.test "$HRR_PORT" www.sni.test public.txt
	assert_line 'retry: cf21ad74'
	assert_output --partial "PUBLIC www.sni.test"
	assert_equal "$(net_sni)" '["www.sni.test", true]'
}

@test "tunnel: TLS 1.2 (its ServerHello and Certificate in plaintext) and TLS 1.3 both pass the watched handshake, with their byte counts" {
	build_probes
	write_tunnel_py
	tunnel_policy "{\"allow\": [\"www.sni.test:$SNI_PORT\"],
	  \"allowAddresses\": [\"127.0.0.2/32\"]}"
	tunnel www.sni.test "$SNI_PORT" www.sni.test public.txt --tls12
	assert_output --partial "PUBLIC www.sni.test"
	assert_equal "$(net_sni)" '["www.sni.test", true]'
	assert [ "$(audit_get net 'r["bytesDown"]')" -gt 600 ]
	tunnel www.sni.test "$SNI_PORT" www.sni.test public.txt
	assert_output --partial "PUBLIC www.sni.test"
	assert [ "$(audit_get net 'r["bytesUp"]')" -gt 200 ]
}

@test "tunnel: plain http through a CONNECT to a plain-http port is refused: no GET with another Host, no pipelined POST (native code)" {
	build_probes
	write_tunnel_py
	tunnel_policy '"host"'
	tunnel media.test "$HTTP_PORT" admin.test "clip.mp4?plain=host" --plain
	grep -q '^GET /clip.mp4?plain=host admin.test$' "$ORIGIN_LOG"
	grep -q '^POST /clip.mp4?plain=host admin.test$' "$ORIGIN_LOG"
	tunnel_policy "{\"allow\": [\"media.test:$HTTP_PORT\"],
	  \"allowAddresses\": [\"127.0.0.2/32\"]}"
	tunnel media.test "$HTTP_PORT" admin.test "clip.mp4?plain=tunnel" --plain
	assert_line 'proxy: HTTP/1.1 200 Connection established'
	run grep -c 'plain=tunnel' "$ORIGIN_LOG"
	assert_output 0
	assert_equal "$(net_sni)" '[null, false]'
	assert_equal "$(audit_get net 'r["reason"]')" '"a tunnel whose first bytes are not a TLS handshake"'
}

@test "tunnel: a Host header naming a denied name is refused: deny wins by address (ffmpeg -headers, argv alone)" {
	local url="https://www.cdn.test:$FRONT_PORT/secret.txt"
	policy ", \"network\": \"host\", $LIMITS"
	run leak_host "$BIN/ffmpeg" secret.cdn.test "$url"
	assert_output --partial "$TOKEN"
	allow_policy "\"*.cdn.test:$FRONT_PORT\"" '"127.0.0.2/32"' '"secret.cdn.test"'
	local before
	before=$(hits "$VHOST_LOG")
	mark_audit
	run leak_host "$BIN/ffmpeg" secret.cdn.test "$url"
	assert_command_failed
	refute_output --partial "$TOKEN"
	assert_equal "$(hits "$VHOST_LOG")" "$before"
	assert_refused www.cdn.test
	run audit_get net 'r["reason"]'
	assert_output '"www.cdn.test shares an address with the denied name secret.cdn.test: deny wins"'
}

# leak_host PROG HOST URL: leak, with "Host: HOST" sent instead of URL's.
leak_host() {
	in_ns "$1" -nostdin -v error -rw_timeout 5000000 \
		-headers "Host: $2"$'\r\n' -i "$3" -f srt -
}

# Issue 31, finding 2: deny by address holds only where the denied and
# the allowed name share an address in that lookup. A front end that
# answers each name at its own address, as a CDN does, serves the denied
# name through an allowed name's https tunnel under a Host header naming
# it: sbexec cannot read inside TLS. Over plain http the origin gets the
# URI's Host, never the command's. This test pins both halves of the
# sentence in SECURITY.md and sbexec.json(5).
@test "tunnel: a denied name its front end answers at another address passes in an allowed name's https tunnel by its Host header (not enforced); over plain http the origin gets the URI's Host (enforced)" {
	local https="https://www.edge.test:$EDGE_TLS_PORT/secret.txt"
	local http="http://www.edge.test:$EDGE_HTTP_PORT/secret.txt"
	# The control: without sbexec, the Host header picks the denied
	# name's secret at the allowed name's address, both ways.
	run leak_host ffmpeg secret.edge.test "$https"
	assert_output --partial "$TOKEN"
	run leak_host ffmpeg secret.edge.test "$http"
	assert_output --partial "$TOKEN"
	allow_policy "\"www.edge.test:$EDGE_TLS_PORT\", \"www.edge.test:$EDGE_HTTP_PORT\"" \
		'"127.0.0.4/32", "127.0.0.5/32"' '"secret.edge.test"'
	# Enforced: the denied name itself, by name.
	mark_audit
	run leak "$BIN/ffmpeg" "https://secret.edge.test:$EDGE_TLS_PORT/secret.txt"
	assert_command_failed
	refute_output --partial "$TOKEN"
	assert_refused secret.edge.test
	# Enforced: plain http, where the origin gets the URI's Host.
	mark_audit
	run leak_host "$BIN/ffmpeg" secret.edge.test "$http"
	assert_command_failed
	refute_output --partial "$TOKEN"
	assert_equal "$(tail -n 1 "$VHOST_LOG")" "GET /secret.txt www.edge.test:$EDGE_HTTP_PORT"
	# Not enforced: https, the Host header inside the allowed name's
	# tunnel, at an address the denied name does not have.
	mark_audit
	run leak_host "$BIN/ffmpeg" secret.edge.test "$https"
	assert_success
	assert_output --partial "$TOKEN"
	assert_allowed www.edge.test "$EDGE_TLS_PORT"
	run audit_get net '[r["host"], r["address"], r["sni"], r["allowed"]]'
	assert_output '["www.edge.test", "127.0.0.4", "www.edge.test", true]'
}

# ---------------------------------------------------- backend and --check

@test "the Landlock backend refuses a network object: exit 125, one line" {
	[ "$(landlock_abi)" -ge 1 ] || skip "the kernel has no Landlock"
	local net='"network": {"allow": ["media.test"]}'
	write_policy "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\"},
	  \"audit\": \"$AUDIT\", \"sandbox\": \"bwrap\", $net}"
	run -0 sbx --check
	write_policy "{\"commands\": {\"ffprobe\": \"/usr/bin/ffprobe\"},
	  \"audit\": \"$AUDIT\", \"sandbox\": \"landlock\", $net}"
	run -125 "$BIN/ffprobe" -version
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '^sbexec: '
	assert_output --regexp '[Ll]andlock'
	# Per command too: ffprobe under Landlock inherits the object.
	write_policy "{\"commands\": {\"ffprobe\": {\"path\": \"/usr/bin/ffprobe\",
	  \"sandbox\": \"landlock\"}}, \"audit\": \"$AUDIT\", $net}"
	run -125 "$BIN/ffprobe" -version
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '[Ll]andlock'
}

@test "--check prints the allow-list, the deny-list and allowAddresses, and what a wildcard and a denied name reach" {
	allow_policy "\"media.test:$HTTP_PORT\", \"*.cdn.test\"" \
		'"127.0.0.2/32", "10.9.0.0/16"' '"www.cdn.test", "*.ads.test"'
	run -0 sbx --check
	assert_line "  allow      media.test:$HTTP_PORT"
	assert_line '  allow      *.cdn.test (every name below it, and whatever their front ends serve under any Host header)'
	assert_line '  deny       www.cdn.test (and every allowed name that shares an address with it in the same lookup; at another address, an allowed name'"'"'s https tunnel can still reach it by its Host header)'
	assert_line '  deny       *.ads.test (by name only: a wildcard has no address to look up; an allowed name'"'"'s https tunnel can still reach it by its Host header)'
	assert_output --partial "a tunnel carries only TLS naming its host"
	assert_output --partial 127.0.0.2/32
	assert_output --partial 10.9.0.0/16
	refute_line "network: none (loopback only)"
}

# A command makes refusals as fast as it connects: each was a line on
# stderr and a record holding its whole target (up to 8 KiB), without
# bound (the review saw 55 MB a second). Now a run says and records the
# first 16, then one summary with the count; a target shows 200 bytes.
@test "allow-list: a flood of refused requests: 16 said and recorded, one summary with the count, targets cut" {
	cat >flood.py <<-'EOF'
		import socket, sys
		pad = "x" * 7000
		for i in range(int(sys.argv[1])):
		    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		    s.sendall(("GET http://evil.test/%s?n=%d HTTP/1.1\r\n"
		               "Host: evil.test\r\n\r\n" % (pad, i)).encode())
		    while s.recv(4096):
		        pass
	EOF
	allow_policy "\"media.test:$HTTP_PORT\""
	mark_audit
	run -0 --separate-stderr in_ns "$SBEXEC" sh -c '/usr/bin/python3 flood.py 100'
	assert_equal "$(grep -c 'network: refused GET http://evil.test/' <<<"$stderr")" 16
	assert_equal "$(grep -c 'network: 84 more requests refused or failed, not shown one by one' <<<"$stderr")" 1
	assert [ "${#stderr}" -lt 8000 ]
	"$PYTHON" - "$AUDIT" "$AUDIT_MARK" <<-'EOF'
		import json, sys
		recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]]
		net = [r for r in recs if r["type"] == "net"]
		assert len(net) == 17, len(net)
		for r in net[:16]:
		    assert r["allowed"] is False and r["host"] == "evil.test", r
		    assert len(r["target"]) < 260 and "...[cut: " in r["target"], r["target"]
		assert net[16]["reason"] == "84 more requests refused or failed, not recorded one by one", net[16]
		assert all(len(json.dumps(r)) < 1200 for r in net)
		end = [r for r in recs if r["type"] == "end"][-1]
		assert end["netRefused"] == 100, end
	EOF
	# sbexec's own lines of the run count in the stream's bytes (the
	# summary comes after the run).
	assert [ "$(audit_get end 'r["stderrBytes"]')" -ge "$(head -n 16 <<<"$stderr" | wc -c)" ]
}

# Issue 31, finding 3: after 16 refusals, an allowed tunnel that ended in
# a reset was counted as failed and not recorded, though it had carried
# 60 KB up. A connection that moved bytes has its own record, whatever
# came before it.
@test "allow-list: after 17 refusals, an allowed tunnel that carried data and was reset has its own record with its bytes" {
	cat >reset.py <<-'EOF'
		import socket, ssl, struct, sys, time
		port = int(sys.argv[1])
		for i in range(17):
		    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		    s.sendall(b"GET http://evil.test/x?n=%d HTTP/1.1\r\nHost: evil.test\r\n\r\n" % i)
		    while s.recv(4096):
		        pass
		s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		s.sendall(b"CONNECT media.test:%d HTTP/1.1\r\n\r\n" % port)
		head = b""
		while b"\r\n\r\n" not in head:
		    head += s.recv(1)
		ctx = ssl.create_default_context()
		ctx.check_hostname = False
		ctx.verify_mode = ssl.CERT_NONE
		t = ctx.wrap_socket(s, server_hostname="media.test")
		t.sendall(b"GET /clip.mp4 HTTP/1.1\r\nHost: media.test\r\nX-Pad: " + b"a" * 60000)
		time.sleep(0.5)
		t.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
		t.close()  # a reset, not a close
	EOF
	allow_policy "\"media.test:$TLS_PORT\""
	mark_audit
	run --separate-stderr in_ns "$SBEXEC" sh -c "/usr/bin/python3 reset.py $TLS_PORT"
	[ "$status" -eq 0 ] || fail "reset.py: $stderr"
	"$PYTHON" - "$AUDIT" "$AUDIT_MARK" <<-'EOF'
		import json, sys
		recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]]
		net = [r for r in recs if r["type"] == "net"]
		tun = [r for r in net if r["method"] == "CONNECT"]
		assert len(tun) == 1, net
		t = tun[0]
		assert t["allowed"] is True and t["sni"] == "media.test", t
		assert t["bytesUp"] > 60000 and t["bytesDown"] > 0, t
		assert t["connections"] == 1, t
		assert net[-1]["reason"] == "1 more requests refused or failed, not recorded one by one", net[-1]
		end = [r for r in recs if r["type"] == "end"][-1]
		assert end["netRefused"] == 17, end
	EOF
}

# The other way: one command made 2,581 allowed requests in 2 s, 1.2 MB
# of audit. The first 64 that moved bytes are recorded one by one; past
# them, one under 64 KiB is summed into one record with the count and
# the bytes; a larger one still has its own.
@test "allow-list: a burst of allowed requests: 64 recorded one by one, the small ones past them summed with their totals, a large one still on its own" {
	head -c 100000 /dev/urandom >"$NET/media/big.bin"
	cat >burst.py <<-'EOF'
		import socket, sys
		h = "media.test:" + sys.argv[1]
		def ask(method, path):
		    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		    s.sendall(("%s http://%s/%s HTTP/1.1\r\nHost: %s\r\n\r\n"
		               % (method, h, path, h)).encode())
		    while s.recv(65536):
		        pass
		for i in range(100):
		    ask("HEAD", "clip.mp4?n=%d" % i)
		ask("GET", "big.bin")
	EOF
	allow_policy "\"media.test:$HTTP_PORT\""
	mark_audit
	run -0 --separate-stderr in_ns "$SBEXEC" sh -c "/usr/bin/python3 burst.py $HTTP_PORT"
	assert_equal "$(grep -c 'network: 36 more connections under 64 KiB each' <<<"$stderr")" 1
	"$PYTHON" - "$AUDIT" "$AUDIT_MARK" <<-'EOF'
		import json, sys
		recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]]
		net = [r for r in recs if r["type"] == "net"]
		one = [r for r in net if r["connections"] == 1]
		assert len(one) == 65, len(one)
		assert all(r["allowed"] and r["bytesDown"] > 0 for r in one), one
		assert one[-1]["target"].endswith("/big.bin") and one[-1]["bytesDown"] > 100000, one[-1]
		summ = [r for r in net if r["connections"] > 1]
		assert len(summ) == 1 and summ[0]["connections"] == 36, summ
		s = summ[0]
		assert s["allowed"] is True and s["method"] is None and s["host"] is None, s
		per = one[0]
		assert s["bytesUp"] >= 36 * (per["bytesUp"] - 10), (s, per)
		assert s["bytesDown"] >= 36 * (per["bytesDown"] - 10), (s, per)
		end = [r for r in recs if r["type"] == "end"][-1]
		assert end["netRefused"] == 0, end
	EOF
}

# An allowed request that ends before a byte moves (here: an origin that
# closes at once) is as cheap as a refusal; it was recorded one by one
# without bound. It shares the refusals' 16 records, then is summed.
@test "allow-list: allowed requests that moved nothing: 16 recorded one by one, the rest summed in one record, none counted as refused" {
	recorder tcp
	cat >empty.py <<-'EOF'
		import socket, sys
		for i in range(30):
		    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		    s.sendall(b"CONNECT evil.test:%s HTTP/1.1\r\n\r\n" % sys.argv[1].encode())
		    while s.recv(4096):
		        pass
	EOF
	allow_policy "\"evil.test:$REC_PORT\"" '"127.0.0.1/32"'
	mark_audit
	run -0 --separate-stderr in_ns "$SBEXEC" sh -c "/usr/bin/python3 empty.py $REC_PORT"
	assert_equal "$(recorded)" 150
	assert_equal "$(grep -c 'network: 14 more connections under 64 KiB each, 0 bytes up and 0 down' <<<"$stderr")" 1
	"$PYTHON" - "$AUDIT" "$AUDIT_MARK" <<-'EOF'
		import json, sys
		recs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]]
		net = [r for r in recs if r["type"] == "net"]
		assert len(net) == 17, net
		for r in net[:16]:
		    assert r["allowed"] is True and r["host"] == "evil.test", r
		    assert r["error"] is None and r["connections"] == 1, r
		    assert r["bytesUp"] == 0 and r["bytesDown"] == 0, r
		s = net[16]
		assert s["allowed"] is True and s["host"] is None and s["connections"] == 14, s
		assert s["bytesUp"] == 0 and s["bytesDown"] == 0, s
		end = [r for r in recs if r["type"] == "end"][-1]
		assert end["netRefused"] == 0, end
	EOF
}

# ---- entries with a scheme, refused-request records (issue 23 items 2, 5)

# talk_py: talk.py in the cwd: each argument a raw request on its own
# connection, the answer's status line printed.
talk_py() {
	cat >talk.py <<-'PY'
		import socket, sys
		for req in sys.argv[1:]:
		    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
		    s.sendall(req.replace("\\r\\n", "\r\n").encode())
		    data = b""
		    while b"\r\n" not in data:
		        chunk = s.recv(4096)
		        if not chunk:
		            break
		        data += chunk
		    print(data.split(b"\r\n")[0].decode("latin-1") or "(closed)")
	PY
}

# talk REQUEST...: talk.py inside the sandbox, through sbexec.
talk() {
	in_ns "$SBEXEC" sh -c '/usr/bin/python3 talk.py "$@"' sh "$@"
}

@test "allow-list: an https:// entry admits CONNECT only, an http:// entry GET and HEAD only (a bare host both)" {
	local tls="https://media.test/clip.mp4?scheme" plain="http://media.test/clip.mp4?scheme"
	allow_policy '"media.test"'
	run -0 probe "$BIN/ffprobe" "$tls"
	assert_output 1
	run -0 probe "$BIN/ffprobe" "$plain"
	assert_output 1
	allow_policy '"https://media.test"'
	run -0 probe "$BIN/ffprobe" "$tls"
	assert_output 1
	mark_audit
	run probe "$BIN/ffprobe" "$plain"
	assert_command_failed
	refute_output 1
	assert_refused media.test
	allow_policy '"http://media.test"'
	run -0 probe "$BIN/ffprobe" "$plain"
	assert_output 1
	mark_audit
	run probe "$BIN/ffprobe" "$tls"
	assert_command_failed
	refute_output 1
	assert_refused media.test
}

@test "allow-list: an http:// entry with a port admits no CONNECT to it, which a bare host:port does" {
	talk_py
	local connect="CONNECT media.test:$HTTP_PORT HTTP/1.1\r\n\r\n"
	allow_policy "\"media.test:$HTTP_PORT\""
	run -0 --separate-stderr talk "$connect"
	assert_output --regexp '^HTTP/1\.[01] 200 '
	allow_policy "\"http://media.test:$HTTP_PORT\""
	run -0 --separate-stderr talk "$connect"
	assert_output --regexp '^HTTP/1\.[01] 403 '
	run -0 probe "$BIN/ffprobe" "http://media.test:$HTTP_PORT/clip.mp4"
	assert_output 1
}

@test "allow-list: an entry with another scheme, a path or user-info refuses the policy; --check prints the scheme" {
	local e
	for e in ftp://media.test https://media.test/ http://media.test/clip.mp4 \
	    https://user@media.test; do
		allow_policy "\"media.test\", \"$e\""
		run -125 "$BIN/ffprobe" -version
		assert_output --partial "network.allow[1]"
		assert_output --partial "\"$e\""
	done
	allow_policy '"https://media.test:8443", "http://*.cdn.test"' \
		'"127.0.0.2/32"' '"https://www.cdn.test"'
	run -0 sbx --check
	assert_output --partial 'https://media.test:8443'
	assert_output --partial 'http://*.cdn.test'
	assert_output --partial 'https://www.cdn.test'
}

@test "allow-list: a refused request is recorded with what it asked (DELETE, POST); a bad HTTP version is 505 or 400" {
	talk_py
	allow_policy "\"media.test:$HTTP_PORT\""
	local h="media.test:$HTTP_PORT"
	mark_audit
	run -0 --separate-stderr talk \
		"DELETE http://$h/clip.mp4?rec=delete HTTP/1.1\r\nHost: $h\r\n\r\n" \
		"POST http://$h/clip.mp4?rec=post HTTP/1.1\r\nHost: $h\r\nContent-Length: 0\r\n\r\n" \
		"GET http://$h/clip.mp4?rec=v99 HTTP/9.9\r\nHost: $h\r\n\r\n" \
		"GET http://$h/clip.mp4?rec=v1x HTTP/1.x\r\nHost: $h\r\n\r\n"
	[ "${#lines[@]}" -eq 4 ] || fail "4 status lines expected: $output"
	assert_line --index 0 --regexp '^HTTP/1\.[01] 405 '
	assert_line --index 1 --regexp '^HTTP/1\.[01] 405 '
	assert_line --index 2 --regexp '^HTTP/1\.[01] 505 '
	assert_line --index 3 --regexp '^HTTP/1\.[01] 400 '
	run grep 'rec=' "$ORIGIN_LOG"
	assert_failure
	"$PYTHON" - "$AUDIT" "$AUDIT_MARK" "$h" <<-'PY'
		import json, sys
		path, mark, h = sys.argv[1], int(sys.argv[2]), sys.argv[3]
		recs = [json.loads(l) for l in open(path).read().splitlines()[mark:]]
		net = [r for r in recs if r["type"] == "net"]
		want = [("DELETE", "delete"), ("POST", "post"), ("GET", "v99"),
		        ("GET", "v1x")]
		assert len(net) == 4, net
		for r, (method, rec) in zip(net, want):
		    assert r["allowed"] is False, r
		    assert r["method"] == method and r["host"] == "media.test", r
		    assert r["port"] == int(h.split(":")[1]), r
		    assert r["target"] == "http://%s/clip.mp4?rec=%s" % (h, rec), r
	PY
	assert_equal "$(grep -c "network: refused DELETE http://$h/" <<<"$stderr")" 1
}
