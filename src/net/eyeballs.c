/* eyeballs.c: a name's checked addresses are tried as RFC 8305 says,
 * so that one dead address (a broken IPv6 path, an edge that is down)
 * costs a quarter of a second instead of failing the request: attempts
 * start one after another, EYEBALLS_DELAY_MS apart or at once when one
 * fails, the families interleaved; the first to connect wins and the
 * others are closed. Every address was checked before (proxy.c), and
 * no name is looked up again. Nothing here blocks. */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

#include "net/eyeballs.h"

void eyeballs_init(struct eyeballs *e, const struct sockaddr_storage *addr,
    int n)
{
	int k = 0, fam[2], at[2] = { 0, 0 };

	*e = (struct eyeballs){ .addr = addr, .n = n, .err = ECONNREFUSED };
	for (int i = 0; i < EYEBALLS_MAX; i++)
		e->fd[i] = -1;
	if (n == 0)
		return;
	fam[0] = addr[0].ss_family;
	fam[1] = fam[0] == AF_INET ? AF_INET6 : AF_INET;
	/* Take the next address of each family in turn. */
	for (int f = 0; k < n; f ^= 1) {
		while (at[f] < n && addr[at[f]].ss_family != fam[f])
			at[f]++;
		if (at[f] < n)
			e->order[k++] = at[f]++;
		else if (at[f ^ 1] >= n)
			break;
	}
	e->n = k;
}

static int in_flight(const struct eyeballs *e)
{
	int n = 0;

	for (int i = 0; i < EYEBALLS_MAX; i++)
		n += e->fd[i] >= 0;
	return n;
}

static socklen_t addr_len(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
	    sizeof(struct sockaddr_in6);
}

/* One attempt more, in free room K: the descriptor (connected at once
 * or in progress), or -1 with e->err when it failed at once. */
static int attempt(struct eyeballs *e, int k)
{
	const struct sockaddr_storage *ss = &e->addr[e->order[e->next]];
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0);

	e->which[k] = e->order[e->next++];
	if (fd < 0) {
		e->err = errno;
		return -1;
	}
	if (connect(fd, (const struct sockaddr *)ss, addr_len(ss)) < 0 &&
	    errno != EINPROGRESS) {
		e->err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

/* Attempt I won: the others go. */
static int win(struct eyeballs *e, int i, int *which)
{
	int fd = e->fd[i];

	*which = e->which[i];
	e->fd[i] = -1;
	eyeballs_free(e);
	return fd;
}

int eyeballs_step(struct eyeballs *e, long long now, int *which)
{
	int k;

	while (e->next < e->n && (in_flight(e) == 0 || now >= e->next_at)) {
		for (k = 0; k < EYEBALLS_MAX && e->fd[k] >= 0; k++)
			;
		if (k == EYEBALLS_MAX)
			break;		/* full: the next waits for room */
		e->fd[k] = attempt(e, k);
		e->next_at = now + EYEBALLS_DELAY_MS;
		if (e->fd[k] >= 0)
			break;		/* the next one is due later */
	}
	if (in_flight(e) > 0)
		return -1;
	(void)which;
	return -2;
}

int eyeballs_check(struct eyeballs *e, long long now, int *which)
{
	struct pollfd p[EYEBALLS_MAX];
	int err, failed = 0;
	socklen_t len;

	for (int i = 0; i < EYEBALLS_MAX; i++)
		p[i] = (struct pollfd){ e->fd[i], POLLOUT, 0 };
	if (poll(p, EYEBALLS_MAX, 0) <= 0)
		return eyeballs_step(e, now, which);
	for (int i = 0; i < EYEBALLS_MAX; i++) {
		if (e->fd[i] < 0 || p[i].revents == 0)
			continue;
		len = sizeof(err);
		if (getsockopt(e->fd[i], SOL_SOCKET, SO_ERROR, &err, &len) ==
		    0 && err == 0)
			return win(e, i, which);
		e->err = err != 0 ? err : errno;
		close(e->fd[i]);
		e->fd[i] = -1;
		failed = 1;
	}
	/* RFC 8305: a failure starts the next attempt at once. */
	if (failed)
		e->next_at = now;
	return eyeballs_step(e, now, which);
}

long long eyeballs_due(const struct eyeballs *e)
{
	return e->next < e->n ? e->next_at : -1;
}

void eyeballs_free(struct eyeballs *e)
{
	for (int i = 0; i < EYEBALLS_MAX; i++)
		if (e->fd[i] >= 0) {
			close(e->fd[i]);
			e->fd[i] = -1;
		}
}
