import ScreenKit
import ToolboxKit

extension ConditionBrowser {
    /// Runs `condtest ui` against `client` until the user quits; returns the exit status.
    public static func run(client: APIClient, casesPath: String?) async throws(ToolError) -> Int32 {
        let program = ConditionBrowser(server: client.server.description, casesPath: casesPath)
        return try await ScreenRunner.exitStatus(program, color: Terminal.colorEnabled()) { command, poster in
            await perform(command, client: client, poster: poster)
        }
    }

    /// Does one command's work off the screen's thread and posts what came of it.
    static func perform(_ command: Command, client: APIClient, poster: ScreenRunner.Poster<Message>) async {
        switch command {
        case .loadList:
            let result: Result<[ConditionSummary], ToolError>
            do { result = .success(try await ConditionLoader.list(client: client)) } catch { result = .failure(error) }
            if !Task.isCancelled { poster.post(.list(result)) }
        case .loadCondition(let id):
            let result: Result<ConditionRecord, ToolError>
            do { result = .success(try await ConditionLoader.load(.server(id: id), client: client)) } catch { result = .failure(error) }
            if !Task.isCancelled { poster.post(.condition(id: id, result)) }
        case .stopLoading:
            return
        case .appendCase(let line, let path):
            do {
                try CaseFileLine.append(line, to: path)
                poster.post(.appended(.success(line)))
            } catch {
                poster.post(.appended(.failure(error)))
            }
        }
    }
}
