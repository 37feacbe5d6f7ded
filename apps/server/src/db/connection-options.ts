/**
 * Settings of every connection the server opens to PostgreSQL: times in UTC,
 * and no JIT compilation (decision 0042). PostgreSQL compiles a statement
 * whose plan it reckons costly (over `jit_above_cost`), and a search's or a
 * count's plan often is, for a branch that never runs or a scan the index
 * cuts short: the compiling then took 35-55 ms of a search that reads its
 * rows in 3 ms.
 */
export const CONNECTION_OPTIONS = '-c TimeZone=UTC -c jit=off';
