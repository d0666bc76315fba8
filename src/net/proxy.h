/* proxy.h: the http(s) proxy of DESIGN 11, run in sbexec's event loop
 * outside the sandbox, reached through the listening socket that
 * netns.c makes on the sandbox's loopback. */
#ifndef SBEXEC_PROXY_H
#define SBEXEC_PROXY_H

#include <poll.h>

#include "policy/netpolicy.h"

#define PROXY_CONNS 16			/* at once; more wait in the backlog */
/* The listener, the resolver, and each connection's two sides, the
 * origin's side as up to EYEBALLS_MAX attempts while it connects. */
#define PROXY_FDS (2 + 5 * PROXY_CONNS)

struct proxy;

/* A proxy for NP on LISTEN_FD (taken over); NAME is the command's. */
struct proxy *proxy_start(const struct netpolicy *np, int listen_fd,
    const char *name);

/* Fill P (room for PROXY_FDS) with what to wait for; returns how many. */
size_t proxy_watch(struct proxy *px, struct pollfd *p);

/* Act on P as poll(2) returned it for proxy_watch's entries. */
void proxy_act(struct proxy *px, const struct pollfd *p);

/* Milliseconds until the next deadline of a connection, or -1. */
int proxy_timeout(const struct proxy *px);

/* 1 once a record could not be written to the audit: stop the run. */
int proxy_failed(const struct proxy *px);

/* Close every connection, each with its record, then the summary of
 * the refusals past the first few, and free PX. Returns how many
 * requests were refused or failed, all told (for the end record). */
long proxy_stop(struct proxy *px);

#endif
