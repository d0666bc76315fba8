/* proxy.c: each connection from the sandbox makes one request (HEAD,
 * proxyreq.c), which passes the host rules, a lookup off the loop
 * (resolve.c) and the address check (netpolicy.c), before sbexec
 * connects to a checked address, never to the name again. Then bytes
 * are copied both ways (flow.c); nothing here blocks. A refusal is answered with an HTTP status the command can
 * report; every connection that made a request ends in one audit record
 * ("type": "net"). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "audit/audit.h"
#include "fmt.h"
#include "net/dns.h"
#include "net/eyeballs.h"
#include "net/flow.h"
#include "net/lookups.h"
#include "net/proxy.h"
#include "net/proxyreq.h"
#include "net/tunnel.h"
#include "util.h"

#define HEAD_TIMEOUT_MS 10000
#define RESOLVE_TIMEOUT_MS 15000
#define CONNECT_TIMEOUT_MS 10000
#define IDLE_TIMEOUT_MS 120000
#define REPLY_TIMEOUT_MS 5000
/* A command can make requests as fast as it connects. A connection that
 * moved no byte to or from an origin (a refusal, a failed connect, an
 * allowed one that ended first) is recorded one by one, a refusal said
 * too, for the first SAID_MAX of a run, all kinds together; past them a
 * refused or failed one is only counted, an allowed one summed with the
 * small ones below. One that moved bytes is recorded one by one for the
 * first CARRIED_MAX, and past them whenever it moved BIG_BYTES or more;
 * the small ones past them are summed (count and bytes) into one record
 * at the end, so the audit grows by at most one record per BIG_BYTES
 * moved. A target, which may be 8 KiB, is shown to SHOWN_MAX bytes. */
#define SAID_MAX 16
#define CARRIED_MAX 64
#define BIG_BYTES (64 * 1024)
#define SHOWN_MAX 200

/* C_HELLO: a CONNECT tunnel answered "200", whose plaintext handshake
 * is read both ways (tunnel.c) until the server's ServerHello. */
enum cstate {
	C_FREE, C_HEAD, C_RESOLVE, C_CONNECT, C_HELLO, C_RELAY, C_REPLY
};

struct conn {
	enum cstate st;
	unsigned gen;
	int cfd, ufd;		/* the command's side; the origin's */
	char *head;
	size_t head_len;
	int parsed;		/* a request line was read: it is recorded */
	struct proxy_req req;
	struct tunnel t;	/* C_HELLO: the watched handshake */
	char sni[HOST_MAX + 1];	/* the server name the hellos sent */
	struct answer ans;	/* the checked addresses */
	struct eyeballs eb;	/* C_CONNECT: the attempts (eyeballs.c) */
	long long connect_by;	/* C_CONNECT: the end of every attempt */
	char address[INET6_ADDRSTRLEN];
	struct relay r;		/* the bytes both ways, once connected */
	char *out;		/* a refusal being answered */
	size_t out_off, out_len;
	long long deadline;
	char *reason, *error;	/* refused; failed once allowed */
	int quiet;		/* a refusal past SAID_MAX: counted only */
};

struct slot {			/* what one pollfd of proxy_watch is */
	int conn;		/* -1: listener, -2: resolver */
	unsigned gen;
};

struct proxy {
	const struct netpolicy *np;
	const char *name;
	int lfd, rd, wr;
	int failed;
	long refusals;		/* refused or failed requests, all told */
	long nothing;		/* requests that moved nothing, all kinds */
	long unrecorded;	/* refused or failed, past SAID_MAX */
	long carried;		/* connections that moved bytes */
	struct audit_net summed;	/* the small ones past CARRIED_MAX */
	struct lookups *lk;	/* names, and the threads looking them up */
	struct conn c[PROXY_CONNS];
	struct slot map[PROXY_FDS];
	size_t nmap;
};

struct proxy *proxy_start(const struct netpolicy *np, int listen_fd,
    const char *name)
{
	struct proxy *px = xmalloc(sizeof(*px));
	int p[2];

	*px = (struct proxy){ .np = np, .name = name, .lfd = listen_fd };
	if (pipe2(p, O_CLOEXEC) < 0)
		die(EXIT_SBEXEC, "pipe");
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	px->rd = p[0];
	px->wr = p[1];
	px->lk = lookups_new(px->wr);
	for (int i = 0; i < PROXY_CONNS; i++)
		px->c[i] = (struct conn){ .cfd = -1, .ufd = -1,
		    .r = RELAY_INIT };
	return px;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Bytes of sbexec's own into an empty pipe (at most a page or two). */
static int put_all(struct flow *f, const void *buf, size_t len)
{
	return flow_put(f, buf, len) == (long)len ? 0 : -1;
}

/* S as a line or a record shows it: a longer one cut, with its length. */
static char *shown(const char *s)
{
	size_t n;

	if (s == NULL)
		return NULL;
	if ((n = strlen(s)) <= SHOWN_MAX)
		return xstrdup(s);
	return xasprintf("%.*s...[cut: %zu bytes]", SHOWN_MAX, s, n);
}

/* S for the terminal stderr may be: a byte that is not printable ASCII,
 * which could drive it, as '?' (the record keeps it, JSON-escaped). */
static char *printable(char *s)
{
	for (char *p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	return s;
}

/* One more refused or failed request: is it said? */
static void count_refusal(struct proxy *px, struct conn *c)
{
	px->refusals++;
	c->quiet = ++px->nothing > SAID_MAX;
}

/* An allowed request that ended before a byte moved (the command left
 * during the lookup or the connect, the origin closed at once) is as
 * cheap to make as a refusal: within SAID_MAX it has its record, past
 * it it is summed with the small connections. */
static int empty_recorded(struct proxy *px)
{
	if (++px->nothing <= SAID_MAX)
		return 1;
	px->summed.connections++;
	return 0;
}

/* Is C, which made a request, recorded on its own? Else it is counted,
 * or summed. */
static int recorded(struct proxy *px, struct conn *c)
{
	long long up = c->r.bytes_up, down = c->r.bytes_down;

	if (up == 0 && down == 0) {
		if (c->error == NULL && c->reason == NULL)
			return empty_recorded(px);
		if (c->reason == NULL)
			count_refusal(px, c);	/* failed: never said */
		px->unrecorded += c->quiet;
		return !c->quiet;
	}
	if (++px->carried <= CARRIED_MAX || up + down >= BIG_BYTES)
		return 1;
	px->summed.connections++;
	px->summed.bytes_up += up;
	px->summed.bytes_down += down;
	return 0;
}

static void record(struct proxy *px, struct conn *c)
{
	struct audit_net n = {
		.method = c->req.method, .host = c->req.host[0] ?
		    c->req.host : NULL, .target = shown(c->req.target),
		.address = c->address[0] ? c->address : NULL,
		.sni = c->sni[0] ? c->sni : NULL,
		.reason = shown(c->reason), .error = shown(c->error),
		.port = c->req.port, .bytes_up = c->r.bytes_up,
		.bytes_down = c->r.bytes_down,
	};

	if (c->parsed && recorded(px, c) && audit_net(&n) < 0)
		px->failed = 1;
	free((char *)n.target);
	free((char *)n.reason);
	free((char *)n.error);
}

static void conn_close(struct proxy *px, struct conn *c)
{
	if (c->st == C_CONNECT)
		eyeballs_free(&c->eb);
	record(px, c);
	close_fd(&c->cfd);
	close_fd(&c->ufd);
	proxy_req_free(&c->req);
	free(c->head);
	tunnel_free(&c->t);
	relay_close(&c->r);
	free(c->out);
	free(c->reason);
	free(c->error);
	*c = (struct conn){ .gen = c->gen + 1, .cfd = -1, .ufd = -1,
	    .r = RELAY_INIT };
}

/* Answer STATUS with WHY and close once it is written. */
static void reply(struct conn *c, int status, const char *why)
{
	static const struct { int code; const char *text; } texts[] = {
		{ 400, "Bad Request" }, { 403, "Forbidden" },
		{ 405, "Method Not Allowed" }, { 502, "Bad Gateway" },
		{ 504, "Gateway Timeout" }, { 505, "HTTP Version Not Supported" },
	};
	const char *text = "Error";

	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++)
		if (texts[i].code == status)
			text = texts[i].text;
	close_fd(&c->ufd);
	c->out = xasprintf("HTTP/1.1 %d %s\r\nContent-Type: text/plain"
	    "\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n"
	    "sbexec: %s\n", status, text, strlen(why) + 9, why);
	c->out_off = 0;
	c->out_len = strlen(c->out);
	c->st = C_REPLY;
	c->deadline = now_ms() + REPLY_TIMEOUT_MS;
}

static const char *what(const struct conn *c)
{
	return c->req.target ? c->req.target : "a request";
}

/* The policy says no to C, for WHY (taken): counted, and said unless
 * past SAID_MAX. */
static void said(struct proxy *px, struct conn *c, char *why)
{
	char *target = printable(shown(what(c)));
	char *reason = printable(shown(why));

	c->parsed = 1;
	c->reason = why;
	count_refusal(px, c);
	if (!c->quiet)
		warnx("%s: network: refused %s%s%s: %s", px->name,
		    c->req.method ? c->req.method : "", c->req.method ?
		    " " : "", target, reason);
	free(target);
	free(reason);
}

/* Refused before any answer: 403 (400 for a malformed request). */
static void refuse(struct proxy *px, struct conn *c, int status,
    char *why)
{
	said(px, c, why);
	reply(c, status, why);
}

/* Refused inside a tunnel already answered "200": no HTTP is left to
 * answer in, so the connection closes, with the record. */
static void refuse_tunnel(struct proxy *px, struct conn *c, char *why)
{
	said(px, c, why);
	conn_close(px, c);
}

/* Allowed, but the origin could not be reached: 502 or 504. */
static void fail(struct conn *c, int status, char *why)
{
	c->error = why;
	reply(c, status, why);
}

static int free_slot(const struct proxy *px)
{
	for (int i = 0; i < PROXY_CONNS; i++)
		if (px->c[i].st == C_FREE)
			return i;
	return -1;
}

static void on_accept(struct proxy *px)
{
	int i = free_slot(px);
	int fd = accept4(px->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0 || i < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	px->c[i].cfd = fd;
	px->c[i].st = C_HEAD;
	px->c[i].head = xmalloc(HEAD_MAX);
	px->c[i].deadline = now_ms() + HEAD_TIMEOUT_MS;
}

/* The denied names to look up beside the request's: every one that
 * covers its port. A wildcard names no address to look up. */
static size_t deny_names(const struct proxy *px, const struct conn *c,
    const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < px->np->ndeny; i++)
		if (!px->np->deny[i].wildcard && host_rule_denies(
		    &px->np->deny[i], c->req.port, c->req.connect))
			out[n++] = px->np->deny[i].name;
	return n;
}

/* The request's host and the denied names that cover its port: 1 with
 * c->ans filled, 0 while lookups go on, -1 when none can. */
static int ask(struct proxy *px, struct conn *c)
{
	const char **deny = xmalloc((px->np->ndeny + 1) * sizeof(*deny));
	int rc = lookups_ask(px->lk, c->req.host, deny,
	    deny_names(px, c, deny), &c->ans, now_ms());

	free(deny);
	return rc;
}

static void checked(struct proxy *px, struct conn *c);

static void decide(struct proxy *px, struct conn *c)
{
	const char *why;
	int rc;
	int status = proxy_req_parse(c->head, proxy_head_len(c->head,
	    c->head_len), &c->req, &why);

	c->parsed = 1;
	if (status != 0) {
		refuse(px, c, status, xstrdup(why));
	} else if ((why = netpolicy_host(px->np, c->req.host, c->req.port,
	    c->req.connect)) != NULL) {
		refuse(px, c, 403, xstrdup(why));
	} else if ((rc = ask(px, c)) < 0) {
		fail(c, 502, xstrdup("no room to look the name up"));
	} else if (rc == 1) {
		checked(px, c);		/* every answer was kept */
	} else {
		c->st = C_RESOLVE;
		c->deadline = now_ms() + RESOLVE_TIMEOUT_MS;
	}
}

static void on_head(struct proxy *px, struct conn *c)
{
	ssize_t n = read(c->cfd, c->head + c->head_len, HEAD_MAX - c->head_len);
	size_t end;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(px, c);	/* gone before asking anything */
		return;
	}
	c->head_len += (size_t)n;
	end = proxy_head_len(c->head, c->head_len);
	if (end == 0 && c->head_len < HEAD_MAX)
		return;
	if (end == 0) {
		refuse(px, c, 400, xstrdup("a request head over 8 KiB"));
		return;
	}
	decide(px, c);
}

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)(void *)ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)(void *)ss)->sin6_port =
		    htons((uint16_t)port);
}

static void name_address(struct conn *c, const struct sockaddr_storage *ss)
{
	const void *a = ss->ss_family == AF_INET ?
	    (const void *)&((const struct sockaddr_in *)(const void *)ss)->
	    sin_addr : (const void *)&((const struct sockaddr_in6 *)
	    (const void *)ss)->sin6_addr;

	fmt_addr(ss->ss_family, a, c->address, sizeof(c->address));
}

/* ---- copying */

static void on_relay(struct proxy *px, struct conn *c)
{
	int rc = relay_move(&c->r, c->cfd, c->ufd);

	if (rc < 0 && c->error == NULL)
		c->error = xasprintf("%s", strerror(errno));
	if (rc != 0) {
		conn_close(px, c);
		return;
	}
	c->deadline = now_ms() + IDLE_TIMEOUT_MS;
}

/* C_HELLO: a step of the watched handshake; the copying starts once
 * the server's ServerHello has passed. */
static void hello_step(struct proxy *px, struct conn *c)
{
	int rc;

	errno = 0;
	rc = tunnel_step(&c->t, &c->r, c->cfd, c->ufd, c->req.host, c->sni);
	if (rc == TUNNEL_REFUSED) {
		refuse_tunnel(px, c, c->t.w.retries > 0 ? xasprintf("%s, after "
		    "a HelloRetryRequest", c->t.why) : xstrdup(c->t.why));
		return;
	}
	if (rc == TUNNEL_GONE) {
		if (c->t.why != NULL)
			c->error = xstrdup(c->t.why);
		else if (errno != 0 && errno != EAGAIN)
			c->error = xasprintf("%s", strerror(errno));
		conn_close(px, c);
		return;
	}
	if (c->t.w.hellos > 0)
		c->deadline = now_ms() + IDLE_TIMEOUT_MS;
	if (rc == TUNNEL_DONE) {
		tunnel_free(&c->t);
		c->st = C_RELAY;
		on_relay(px, c);
	}
}

/* After a CONNECT the command gets "200", and what followed its head is
 * the start of the ClientHello; after a GET the origin gets the
 * rewritten head, and what the command sends next is dropped. */
static void established(struct proxy *px, struct conn *c)
{
	static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
	size_t end = proxy_head_len(c->head, c->head_len);

	c->st = C_RELAY;
	c->deadline = now_ms() + IDLE_TIMEOUT_MS;
	if (relay_open(&c->r) < 0) {
		fail(c, 502, xasprintf("pipe: %s", strerror(errno)));
		return;
	}
	c->r.discard = !c->req.connect;
	if (!c->req.connect) {
		if (put_all(&c->r.up, c->req.head, c->req.head_len) < 0)
			fail(c, 502, xstrdup("the request could not be queued"));
		return;
	}
	if (put_all(&c->r.down, ok, sizeof(ok) - 1) < 0) {
		fail(c, 502, xstrdup("the answer could not be queued"));
		return;
	}
	c->st = C_HELLO;
	c->deadline = now_ms() + HEAD_TIMEOUT_MS;
	tunnel_start(&c->t, c->head + end, c->head_len - end);
	hello_step(px, c);
}

/* The attempts said RC (eyeballs.c): connected to address WHICH, all
 * failed (502), or going on until the next is due or time is up. */
static void connecting(struct proxy *px, struct conn *c, int rc, int which)
{
	long long due = eyeballs_due(&c->eb);

	if (rc >= 0) {
		c->ufd = rc;
		name_address(c, &c->ans.addr[which]);
		established(px, c);
	} else if (rc == -2) {
		fail(c, 502, xasprintf("no address of %s took a connection "
		    "on port %d: %s", c->req.host, c->req.port,
		    strerror(c->eb.err)));
	} else {
		c->st = C_CONNECT;
		c->deadline = due >= 0 && due < c->connect_by ? due :
		    c->connect_by;
	}
}

static void start_connect(struct proxy *px, struct conn *c)
{
	int which = -1, rc;

	eyeballs_init(&c->eb, c->ans.addr, c->ans.n);
	c->connect_by = now_ms() + CONNECT_TIMEOUT_MS;
	rc = eyeballs_step(&c->eb, now_ms(), &which);
	connecting(px, c, rc, which);
}

static void on_connect(struct proxy *px, struct conn *c)
{
	int which = -1, rc = eyeballs_check(&c->eb, now_ms(), &which);

	connecting(px, c, rc, which);
}

/* Every address the name has must be one to connect to. */
static void checked(struct proxy *px, struct conn *c)
{
	const char *bad;

	if (c->ans.err != 0) {
		fail(c, 502, xasprintf("%s: %s", c->req.host,
		    dns_strerror(c->ans.err)));
		return;
	}
	if (c->ans.more) {
		refuse(px, c, 403, xasprintf("%s has more than %d addresses",
		    c->req.host, ADDRS_MAX));
		return;
	}
	if (c->ans.denied[0] != '\0') {
		refuse(px, c, 403, c->ans.deny_err != 0 ? xasprintf("the denied "
		    "name %s could not be looked up (%s), so deny cannot be "
		    "checked", c->ans.denied, dns_strerror(c->ans.deny_err)) :
		    xasprintf("%s shares an address with the denied name %s: "
		    "deny wins", c->req.host, c->ans.denied));
		return;
	}
	for (int i = 0; i < c->ans.n; i++) {
		name_address(c, &c->ans.addr[i]);
		bad = netpolicy_addr(px->np, (struct sockaddr *)&c->ans.addr[i]);
		if (bad != NULL) {
			refuse(px, c, 403, xasprintf("%s resolves to %s, which "
			    "is %s", c->req.host, c->address, bad));
			return;
		}
		set_port(&c->ans.addr[i], c->req.port);
	}
	start_connect(px, c);
}

/* Answers came: each request waiting on names asks again. */
static void on_answers(struct proxy *px)
{
	struct name_answer a;
	int rc;

	while (read(px->rd, &a, sizeof(a)) == (ssize_t)sizeof(a))
		lookups_take(px->lk, &a, now_ms());
	for (int i = 0; i < PROXY_CONNS; i++) {
		if (px->c[i].st != C_RESOLVE)
			continue;
		if ((rc = ask(px, &px->c[i])) == 1)
			checked(px, &px->c[i]);
		else if (rc < 0)
			fail(&px->c[i], 502, xstrdup("no room to look the "
			    "name up"));
	}
}

static void on_reply(struct proxy *px, struct conn *c, short ev)
{
	ssize_t n = 0;

	if (ev & POLLOUT)
		n = write(c->cfd, c->out + c->out_off, c->out_len - c->out_off);
	if (n > 0 && (c->out_off += (size_t)n) < c->out_len)
		return;
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	conn_close(px, c);
}

/* ---- the loop's side */

static void watch(struct proxy *px, struct pollfd *p, int fd, short ev,
    struct slot s)
{
	if (fd < 0 || ev == 0)
		return;
	p[px->nmap] = (struct pollfd){ .fd = fd, .events = ev };
	px->map[px->nmap++] = s;
}

static void watch_conn(struct proxy *px, struct pollfd *p, int i)
{
	struct conn *c = &px->c[i];
	short cev = 0, uev = 0;

	if (c->st == C_HEAD)
		cev = POLLIN;
	if (c->st == C_REPLY)
		cev = POLLOUT;
	for (int k = 0; c->st == C_CONNECT && k < EYEBALLS_MAX; k++)
		watch(px, p, c->eb.fd[k], POLLOUT, (struct slot){ i, c->gen });
	if (c->st == C_HELLO)
		tunnel_events(&c->t, &c->r, &cev, &uev);
	if (c->st == C_RELAY)
		relay_events(&c->r, &cev, &uev);
	watch(px, p, c->cfd, cev, (struct slot){ i, c->gen });
	watch(px, p, c->ufd, uev, (struct slot){ i, c->gen });
}

size_t proxy_watch(struct proxy *px, struct pollfd *p)
{
	px->nmap = 0;
	watch(px, p, px->rd, POLLIN, (struct slot){ -2, 0 });
	if (free_slot(px) >= 0)
		watch(px, p, px->lfd, POLLIN, (struct slot){ -1, 0 });
	for (int i = 0; i < PROXY_CONNS; i++)
		if (px->c[i].st != C_FREE)
			watch_conn(px, p, i);
	return px->nmap;
}

static void on_event(struct proxy *px, const struct slot *s, short ev)
{
	struct conn *c = &px->c[s->conn];

	if (c->gen != s->gen)
		return;			/* closed earlier in this round */
	if (c->st == C_HEAD)
		on_head(px, c);
	else if (c->st == C_CONNECT)
		on_connect(px, c);
	else if (c->st == C_HELLO)
		hello_step(px, c);
	else if (c->st == C_RELAY)
		on_relay(px, c);
	else if (c->st == C_REPLY)
		on_reply(px, c, ev);
}

static void on_deadline(struct proxy *px, struct conn *c)
{
	static const char *const late[] = {
		[C_RESOLVE] = "the name lookup took too long",
		[C_CONNECT] = "the origin did not answer the connect in time",
	};

	if (c->st == C_CONNECT && now_ms() < c->connect_by) {
		on_connect(px, c);	/* the next attempt is due */
	} else if (c->st == C_RESOLVE || c->st == C_CONNECT) {
		if (c->st == C_CONNECT)
			eyeballs_free(&c->eb);
		fail(c, 504, xstrdup(late[c->st]));
	}
	else if (c->st == C_HEAD && c->head_len > 0)
		refuse(px, c, 400, xstrdup("the request head did not arrive "
		    "in time"));
	else if (c->st == C_HELLO && c->t.w.hellos == 0)
		refuse_tunnel(px, c, xstrdup("no ClientHello in time"));
	else if ((c->st == C_RELAY || c->st == C_HELLO) && c->error == NULL)
		c->error = xstrdup("idle for too long"), conn_close(px, c);
	else
		conn_close(px, c);
}

void proxy_act(struct proxy *px, const struct pollfd *p)
{
	long long now;

	for (size_t i = 0; i < px->nmap; i++) {
		if (p[i].revents == 0)
			continue;
		if (px->map[i].conn == -2)
			on_answers(px);
		else if (px->map[i].conn == -1)
			on_accept(px);
		else
			on_event(px, &px->map[i], p[i].revents);
	}
	now = now_ms();
	for (int i = 0; i < PROXY_CONNS; i++)
		if (px->c[i].st != C_FREE && now >= px->c[i].deadline)
			on_deadline(px, &px->c[i]);
}

int proxy_timeout(const struct proxy *px)
{
	long long at = -1, now = now_ms();

	for (int i = 0; i < PROXY_CONNS; i++)
		if (px->c[i].st != C_FREE && (at < 0 || px->c[i].deadline < at))
			at = px->c[i].deadline;
	if (at < 0)
		return -1;
	return at <= now ? 0 : at - now > 60000 ? 60000 : (int)(at - now);
}

int proxy_failed(const struct proxy *px)
{
	return px->failed;
}

/* The resolver's pipe stays open: a lookup still running writes its
 * answer there, never into a descriptor reused since. */
/* The refusals past SAID_MAX, said and recorded once. */
static void summary(struct proxy *px)
{
	long more = px->unrecorded;
	char *why;
	struct audit_net n = { .connections = more };

	if (more <= 0)
		return;
	warnx("%s: network: %ld more requests refused or failed, not shown "
	    "one by one", px->name, more);
	why = xasprintf("%ld more requests refused or failed, not recorded "
	    "one by one", more);
	n.reason = why;
	if (audit_net(&n) < 0)
		px->failed = 1;
	free(why);
}

/* The small connections past CARRIED_MAX, and the allowed ones that
 * moved nothing past SAID_MAX, summed in one record. */
static void summed(struct proxy *px)
{
	if (px->summed.connections == 0)
		return;
	warnx("%s: network: %ld more connections under %d KiB each, "
	    "%lld bytes up and %lld down, recorded as one", px->name,
	    px->summed.connections, BIG_BYTES / 1024, px->summed.bytes_up,
	    px->summed.bytes_down);
	if (audit_net(&px->summed) < 0)
		px->failed = 1;
}

long proxy_stop(struct proxy *px)
{
	long refusals;

	for (int i = 0; i < PROXY_CONNS; i++)
		if (px->c[i].st != C_FREE)
			conn_close(px, &px->c[i]);
	summary(px);
	summed(px);
	refusals = px->refusals;
	close_fd(&px->lfd);
	/* The pipe stays: a lookup still running writes to it. */
	lookups_free(px->lk);
	free(px);
	return refusals;
}
