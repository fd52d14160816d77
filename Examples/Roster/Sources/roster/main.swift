import Foundation
import RosterKit

let result = RosterTool.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.output.utf8))
FileHandle.standardError.write(Data(result.errors.utf8))
exit(result.status)
