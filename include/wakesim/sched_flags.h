/*
 * wakesim/sched_flags.h - wake flags and sched-domain flags, with the
 * kernel's names and values; shared by the simulator and policies.
 */
#ifndef WAKESIM_SCHED_FLAGS_H
#define WAKESIM_SCHED_FLAGS_H

/* Wake flags, kernel/sched/sched.h (WF_TTWU/FORK/EXEC equal SD_BALANCE_*). */
#define WF_EXEC 0x02
#define WF_FORK 0x04
#define WF_TTWU 0x08
#define WF_SYNC 0x10
#define WF_MIGRATED 0x20
#define WF_CURRENT_CPU 0x40

/*
 * Enqueue and dequeue flags the model passes (kernel/sched/sched.h, v6.12
 * values): a wake-up's enqueue, a task's first, one after a migration; a
 * dequeue because the task sleeps.
 */
#define ENQUEUE_WAKEUP 0x01
#define ENQUEUE_MIGRATED 0x40
#define ENQUEUE_INITIAL 0x80
#define DEQUEUE_SLEEP 0x01

/* Sched-domain flags, include/linux/sched/sd_flags.h (mainline order). */
#define SD_BALANCE_NEWIDLE 0x0001
#define SD_BALANCE_EXEC 0x0002
#define SD_BALANCE_FORK 0x0004
#define SD_BALANCE_WAKE 0x0008
#define SD_WAKE_AFFINE 0x0010
#define SD_ASYM_CPUCAPACITY 0x0020
#define SD_ASYM_CPUCAPACITY_FULL 0x0040
#define SD_SHARE_CPUCAPACITY 0x0080
#define SD_CLUSTER 0x0100
#define SD_SHARE_LLC 0x0200
#define SD_SERIALIZE 0x0400
#define SD_ASYM_PACKING 0x0800
#define SD_PREFER_SIBLING 0x1000
#define SD_OVERLAP 0x2000
#define SD_NUMA 0x4000
#endif
