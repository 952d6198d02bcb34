/// `body` of every element, `width` at a time, the results in the elements' order (the scores of voices,
/// each a synthesis and an embedding that use about one core). The first error ends the rest.
public func concurrentScores<Element: Sendable, Score: Sendable>(
    _ elements: [Element], width: Int, _ body: @escaping @Sendable (Element) async throws -> Score
) async throws -> [Score] {
    try await withThrowingTaskGroup(of: (Int, Score).self) { group in
        var scores = [Score?](repeating: nil, count: elements.count)
        var next = 0
        func add() {
            let index = next
            let element = elements[index]
            group.addTask { (index, try await body(element)) }
            next += 1
        }
        while next < min(elements.count, max(1, width)) { add() }
        while let (index, score) = try await group.next() {
            scores[index] = score
            if next < elements.count { add() }
        }
        return scores.map { $0! }
    }
}
