"""A deterministic English text of about N words (default 5,000) for the memory benchmark.

    python tools/ttsbench/long_text.py [WORDS] > long.txt

Sentences are built from fixed word lists with a seeded generator and carry running numbers, so no
two are the same (a chunk cache cannot make the text cheaper than it is).
"""

import random
import sys

SUBJECTS = ["The old farmer", "A young engineer", "Our neighbour", "The small committee", "A travelling musician",
            "The harbour master", "My cousin", "The night nurse", "A careful student", "The village baker"]
VERBS = ["carried", "painted", "repaired", "described", "counted", "collected", "measured", "photographed",
         "borrowed", "delivered"]
OBJECTS = ["a wooden chair", "the broken gate", "several heavy boxes", "a map of the coast", "the blue boat",
           "an old letter", "the garden fence", "two baskets of apples", "a set of keys", "the tall ladder"]
PLACES = ["near the river", "behind the station", "at the edge of town", "in the quiet library", "on the hill",
          "beside the market", "under the bridge", "across the valley", "inside the workshop", "by the lake"]
TAILS = ["before the sun went down", "while the rain kept falling", "without saying a word",
         "as the bells began to ring", "after a long and tiring day", "just in time for supper",
         "with a little help from friends", "although nobody had asked", "during the first week of spring",
         "because it seemed the right thing to do"]


def text(words: int, seed: int = 5) -> str:
    rng = random.Random(seed)
    sentences, count, n = [], 0, 0
    while count < words:
        n += 1
        s = (f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(PLACES)} "
             f"{rng.choice(TAILS)}, and that was entry number {n}.")
        sentences.append(s)
        count += len(s.split())
    paragraphs = [" ".join(sentences[i:i + 6]) for i in range(0, len(sentences), 6)]
    return "\n\n".join(paragraphs) + "\n"


if __name__ == "__main__":
    sys.stdout.write(text(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
