#!/usr/bin/env python3
"""Synthetic data for tracing public training programs (tools/trace_accuracy.sh), in place of the
data sets they download:
- DIR/mnist/: the four uncompressed idx files that libtorch's torch::data::datasets::MNIST reads,
  with random pixels and labels. libtorch's reader requires exactly 60000 training and 10000 test
  images of 28x28 (it checks the counts in the headers), so only the contents are synthetic.
- DIR/penntreebank/train.txt: 200 lines of 10 random words from a 50-word vocabulary (2200 tokens
  with the <eos> markers), in place of the Penn Treebank text a language-model tutorial reads.

    python3 tools/make_synthetic_data.py DIR      (~55 MB; files already there are kept)
"""
import os
import random
import struct
import sys

FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", 60000),
         "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", 10000)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rng = random.Random(15)
    text = os.path.join(sys.argv[1], "penntreebank", "train.txt")
    if not os.path.exists(text):
        os.makedirs(os.path.dirname(text), exist_ok=True)
        words = [f"w{i}" for i in range(50)]
        with open(text, "w") as f:
            for _ in range(200):
                f.write(" " + " ".join(rng.choice(words) for _ in range(10)) + " \n")
    out = os.path.join(sys.argv[1], "mnist")
    os.makedirs(out, exist_ok=True)
    for images, labels, n in FILES.values():
        if os.path.exists(os.path.join(out, images)) and os.path.exists(os.path.join(out, labels)):
            continue
        with open(os.path.join(out, images), "wb") as f:
            f.write(struct.pack(">iiii", 2051, n, 28, 28))  # magic, count, rows, columns (big-endian)
            f.write(rng.randbytes(n * 28 * 28))
        with open(os.path.join(out, labels), "wb") as f:
            f.write(struct.pack(">ii", 2049, n))
            f.write(bytes(rng.randrange(10) for _ in range(n)))
    print(f"synthetic data in {sys.argv[1]}: mnist/ (60000 + 10000 random images), penntreebank/train.txt")


if __name__ == "__main__":
    main()
