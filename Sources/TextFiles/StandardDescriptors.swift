import CProcess

/// Standard input, output and error as pipesh found them: one closed when it started (`pipesh >&-`)
/// holds /dev/null from before anything else could take its number, and is reported as closed.
public enum StandardDescriptors {
  public static func wasClosed(_ descriptor: Int32) -> Bool {
    pipe_standard_descriptor_was_closed(descriptor) != 0
  }

  public static let closedInput =
    "standard input is closed (pipesh was started with it closed); give a file: lines \"FILE\""
}
