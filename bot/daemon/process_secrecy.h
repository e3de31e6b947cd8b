#pragma once
// Keeps the lichess token inside this process once it has been read: out of the environment
// that child processes inherit and that /proc/<pid>/environ shows, and out of core dumps.

namespace zh::bot {

// Wipes the value of `name` in place (the initial environment block is what
// /proc/<pid>/environ reads) and removes the variable, so no process started later inherits it.
void scrub_environment_variable(const char* name);

// RLIMIT_CORE 0 and PR_SET_DUMPABLE 0: no core file (which would hold the token in clear) is
// written whatever the system's core pattern, and other processes of the same user cannot
// ptrace this one or read its memory. Returns false (errno set) when a call failed.
bool disable_core_dumps();

}  // namespace zh::bot
