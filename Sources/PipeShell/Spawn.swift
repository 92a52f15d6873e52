#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `posix_spawn` of a child that starts with no signal blocked and every signal's default action,
/// whatever this process had set (SIGINT ignored by whoever started pipesh, its own handlers), and,
/// with `ownGroup`, in a process group of its own (the Ctrl-C that cancels a job at the prompt
/// does not reach it). Returns the child's pid, or why it did not start.
func spawnWithDefaultSignals(
  _ executable: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t, ownGroup: Bool = false
) -> Result<pid_t, SpawnFailure> {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var noSignals = sigset_t()
  sigemptyset(&noSignals)
  var allSignals = sigset_t()
  sigfillset(&allSignals)
  posix_spawnattr_setsigmask(&attributes, &noSignals)
  posix_spawnattr_setsigdefault(&attributes, &allSignals)
  var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
  if ownGroup {
    posix_spawnattr_setpgroup(&attributes, 0)
    flags |= POSIX_SPAWN_SETPGROUP
  }
  posix_spawnattr_setflags(&attributes, Int16(flags))
  let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var pid: pid_t = 0
  let code = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
  return code == 0 ? .success(pid) : .failure(SpawnFailure(code: code))
}

/// Why `posix_spawn` did not start a child: its error number, said as `strerror` says it.
struct SpawnFailure: Error, CustomStringConvertible {
  let code: Int32
  var description: String { String(cString: strerror(code)) }
}
