#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `.pipe` file `pipesh test` runs.
struct TestFile: Equatable, Sendable {
  /// The path as the report shows it: a PATH given, or a PATH joined with what was found under it.
  let path: String
  /// The directory the file's test runs in, so that its relative paths (`lines "data/x"`, `load`,
  /// `to: "F.svg"`) mean the same whichever directory `pipesh test` was started from.
  let directory: String
  /// The file's name in `directory`: the argument its test run gets.
  let name: String

  init(path: String) {
    self.path = path
    if let slash = path.lastIndex(of: "/") {
      let directory = String(path[..<slash])
      self.directory = directory.isEmpty ? "/" : directory
      name = String(path[path.index(after: slash)...])
    } else {
      directory = "."
      name = path
    }
  }
}

/// Finds the tests under `pipesh test`'s PATHs.
enum TestFiles {
  /// A PATH that cannot be read, or PATHs that hold no test: `pipesh test` stops before running.
  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// A file found, and which file it is: a file found by two PATHs (`a.pipe` and `.`) runs once. A
  /// link is a file of its own (its own inode), a test apart from the file it names.
  private struct Found {
    let path: String
    let device: UInt64
    let inode: UInt64
  }

  /// Every `.pipe` file under `paths` (no paths: the current directory), sorted by path, each once.
  /// A PATH that is a file is a test whatever its name. Directories are walked recursively; those
  /// whose names start with `.` (`.build`, `.git`) and links to directories are not entered.
  static func find(_ paths: [String]) -> Result<[TestFile], Problem> {
    var found: [Found] = []
    for path in paths.isEmpty ? ["."] : paths {
      guard !path.isEmpty else {
        return .failure(Problem(description: "an empty PATH: give a .pipe file or a directory"))
      }
      var status = stat()
      guard stat(path, &status) == 0 else {
        return .failure(
          Problem(
            description: "cannot read '\(path)': \(String(cString: strerror(errno))) (give .pipe files or directories "
              + "that hold them)"))
      }
      if (status.st_mode & S_IFMT) == S_IFDIR {
        // With no PATH, the files are named from the current directory, without `./`.
        let prefix = paths.isEmpty ? "" : path.hasSuffix("/") ? path : path + "/"
        switch walk(path, shownAs: prefix, into: &found) {
        case .success: break
        case .failure(let problem): return .failure(problem)
        }
      } else {
        var own = stat()
        if lstat(path, &own) != 0 { own = status }
        found.append(Found(path: path, device: UInt64(own.st_dev), inode: UInt64(own.st_ino)))
      }
    }
    guard !found.isEmpty else {
      let places = paths.isEmpty ? "the current directory" : paths.map { "'\($0)'" }.joined(separator: ", ")
      return .failure(
        Problem(description: "no .pipe files in \(places): give the files or the directories that hold them"))
    }
    // Byte order: the same order on every machine, whatever its locale. A file found twice keeps
    // its first path in that order.
    var seen: Set<[UInt64]> = []
    let sorted = found.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
      .filter { seen.insert([$0.device, $0.inode]).inserted }
    return .success(sorted.map { TestFile(path: $0.path) })
  }

  /// Appends the `.pipe` files under `directory`, named `prefix` + their path below it.
  private static func walk(
    _ directory: String, shownAs prefix: String, into found: inout [Found]
  ) -> Result<
    Void, Problem
  > {
    guard let stream = opendir(directory) else {
      return .failure(Problem(description: "cannot read '\(directory)': \(String(cString: strerror(errno)))"))
    }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    closedir(stream)
    let separated = directory.hasSuffix("/") ? directory : directory + "/"
    for name in names {
      var status = stat()
      // lstat: a link to a directory is not entered (it could lead back up), a link to a file is read.
      guard lstat(separated + name, &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        if case .failure(let problem) = walk(separated + name, shownAs: prefix + name + "/", into: &found) {
          return .failure(problem)
        }
      case S_IFREG, S_IFLNK:
        // A link is followed to what it names: a file (a link to a directory is left out).
        var target = stat()
        guard name.hasSuffix(".pipe"), stat(separated + name, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG
        else { continue }
        found.append(Found(path: prefix + name, device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
      default: continue
      }
    }
    return .success(())
  }
}
