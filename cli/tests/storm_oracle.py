"""A second oracle for `hindsight learn`'s bounds: the probabilistic model
checker Storm (stormpy), run on the model's MDP.

    python storm_oracle.py MODEL.json

Writes the MDP in Storm's explicit format (a `.tra` file headed `mdp`, a
`.lab` file with `#DECLARATION`), has Storm compute Pmax and Pmin of
eventually reaching each goal from every state, and checks that each value
lies within the interval the model holds (plus 1e-6, Storm's own
precision). Prints one line per goal; exits 1 on the first disagreement.
"""

import json
import os
import sys
import tempfile

import stormpy


def storm_values(model, goal):
    """Storm's Pmax and Pmin of reaching goal number `goal`, per state."""
    mdp = model["mdp"]
    n = mdp["states"]
    by_state = {}
    for c in mdp["choices"]:
        by_state.setdefault(c["from"], []).append(c)
    tra = ["mdp"]
    for s in range(n):
        choices = by_state.get(s, [])
        if not choices:
            tra.append(f"{s} 0 {s} 1")
        for i, c in enumerate(choices):
            for t, k in sorted(c["to"]):
                tra.append(f"{s} {i} {t} {k / c['count']!r}")
    lab = ["#DECLARATION", "init goal", "#END", "0 init"]
    lab += [f"{s} goal" for s, state in enumerate(model["states"]) if state["goals"][goal]]
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, "m.tra"), os.path.join(d, "m.lab")]
        for path, lines in zip(paths, (tra, lab)):
            with open(path, "w") as out:
                out.write("\n".join(lines) + "\n")
        built = stormpy.build_model_from_explicit(*paths)
    values = {}
    for name, formula in (("max", 'Pmax=? [F "goal"]'), ("min", 'Pmin=? [F "goal"]')):
        prop = stormpy.parse_properties(formula)[0]
        result = stormpy.model_checking(built, prop, only_initial_states=False)
        values[name] = [result.get_value(s) for s in range(n)]
    return values


def main(path):
    with open(path) as f:
        model = json.load(f)
    for g, bounds in enumerate(model["bounds"]):
        storm = storm_values(model, g)
        for name in ("max", "min"):
            for s, value in enumerate(storm[name]):
                lo, hi = bounds[name]["lo"][s], bounds[name]["hi"][s]
                if not lo - 1e-6 <= value <= hi + 1e-6:
                    print(f"{bounds['goal']} P{name} state {s}: Storm {value}, ours [{lo}, {hi}]")
                    return 1
        print(f"{bounds['goal']}: Pmax {storm['max'][0]:.6f}, Pmin {storm['min'][0]:.6f} from the start, as ours")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
