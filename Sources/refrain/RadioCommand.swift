import ArgumentParser
import Foundation
import RefrainCatalog
import RefrainCore
import RefrainSession

/// `refrain radio`: the radio stations kept in the library.
struct RadioCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "radio",
    abstract: "Radio stations kept in the library: add, list, remove.",
    discussion: """
      A station is a name and the URL of an Icecast or SHOUTcast stream, or of its playlist \
      (.pls, .m3u, .m3u8). Play one with `refrain play URL`, or from the Library pane's Radio \
      section. See docs/home-server.md.
      """,
    subcommands: [Add.self, List.self, Remove.self])

  /// `refrain radio add NAME URL`.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Keep a station; a station of the same name gets the new URL.")

    @Argument(help: "The station's name.")
    var name: String

    @Argument(help: "The http(s) URL of its stream or playlist, or a playlist file.")
    var url: String

    func validate() throws {
      guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ValidationError("the station needs a name")
      }
      let lowered = url.lowercased()
      let isWeb = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
      guard
        isWeb || StreamPlaylist.extensions.contains((url as NSString).pathExtension.lowercased())
      else {
        throw ValidationError("expected an http(s) URL or a .pls/.m3u/.m3u8 file, got '\(url)'")
      }
    }

    func run() throws {
      var location = url
      if !url.lowercased().hasPrefix("http") {
        location = URL(fileURLWithPath: Session.expandingHome(url)).standardizedFileURL.path
      }
      let name = TerminalSanitizer.clean(self.name).trimmingCharacters(in: .whitespaces)
      let added = try RadioCommand.store().radio.saveStation(
        RadioStation(name: name, url: location))
      Console.line(added ? "added station \(name)" : "station \(name) now plays \(location)")
    }
  }

  /// `refrain radio list [--json]`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the stations by name.")

    @Flag(help: "Print a JSON array of {name, url}.")
    var json = false

    func run() throws {
      let stations = try RadioCommand.store().stations()
      if json {
        Console.line(JSONOutput.line(stations))
        return
      }
      if stations.isEmpty { Console.line("no stations: add one with `refrain radio add NAME URL`") }
      for station in stations { Console.line("\(station.name)\t\(station.url)") }
    }
  }

  /// `refrain radio remove NAME`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Forget a station.")

    @Argument(help: "The station's name (any case).")
    var name: String

    func run() throws {
      guard try RadioCommand.store().radio.removeStation(named: name) else {
        RadioCommand.fail("no station named \(name)")
      }
      Console.line("removed station \(name)")
    }
  }

  /// The library, or one line on stderr and exit status 1.
  static func store() -> LibraryStore {
    do {
      return try LibraryStore.openDefault(environment: ProcessInfo.processInfo.environment)
    } catch {
      fail("cannot open the library: \(error)")
    }
  }

  static func fail(_ message: String) -> Never {
    Console.error("refrain radio: \(message)")
    Foundation.exit(1)
  }
}
