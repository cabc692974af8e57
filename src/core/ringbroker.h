/*
 * io_uring rings for a sandboxed run, set up by a helper process (the
 * broker) that is forked before the kernel layer goes on. Each ring it hands
 * out is disabled and restricted to the operations platter's engine submits;
 * the requester maps it and enables it. Once the broker runs, the seccomp
 * filter refuses io_uring_setup (sandbox.c), so no ring in the sandboxed
 * process can make a socket or open a file (docs/sandbox.md, "What io_uring
 * can reach").
 */
#ifndef PLATTER_CORE_RINGBROKER_H
#define PLATTER_CORE_RINGBROKER_H

struct io_uring;
struct io_uring_params;

/* Fork the broker. 0, or -errno (no broker: rings are set up directly). */
int pl_ring_broker_start(void);
/* 1 when rings come from the broker. */
int pl_ring_broker_on(void);
/*
 * A ring of entries from the broker, ready to use. p->flags and p->sq_thread_idle
 * are what io_uring_setup would be given; on success *p is what the kernel filled
 * in, and the ring is mapped into *ring as io_uring_queue_init_params would leave
 * it, then enabled by this process (so a single-issuer ring's one task is this
 * one). 0, or -errno (the kernel's, from the broker, or this process's).
 */
int pl_ring_broker_ring(unsigned entries, struct io_uring_params *p, struct io_uring *ring);

#endif
