/// The English texts a voice search (Kokoro's) speaks. Short ones to score candidates (each generation
/// takes the next few, so no candidate is fitted to one text), others to choose the result, and
/// sentences the search never speaks to check it (`warble voice check`).
public enum SearchTexts {
    public static let training = [
        "The kettle is on, come in.",
        "Turn left at the old mill.",
        "We found seven shells today.",
        "Could you close the window?",
        "Rain is falling on the roof.",
        "My brother plays the drums.",
        "Bring a coat, it is cold.",
        "Lunch is ready in ten minutes.",
    ]

    public static let validation = [
        "She carried the letters down to the harbour at dawn.",
        "Nobody knew why the clock had stopped at noon.",
        "Please read the numbers out slowly.",
    ]

    public static let heldOut = [
        "A quiet garden lies behind the library, full of roses and bees.",
        "The train to the coast leaves at half past four every afternoon.",
        "He wrote the recipe on the back of an envelope and lost it.",
        "If the bridge is closed, we will take the ferry instead.",
    ]
}
