import AsyncAlgorithms
import Foundation

/// The error a channel is ended with by `fail NAME "MESSAGE"`.
struct ChannelFailure: Error, CustomStringConvertible {
  let description: String
}
