/**
 * Which joint of a hand-placed rig.json a proposed (wolf-named) joint is compared with.
 * A name maps to the same name unless listed here; `null` leaves the wolf joint out (the rig
 * has no counterpart). Chains with more joints than the wolf's (the dragon's neck and tail)
 * compare their joints with the proposed chain at the same fraction of its length.
 */
export const CORRESPONDENCE: Record<string, Record<string, string | null>> = {
  wolf: {},
  // The fox has no spine3 (its spine is a chain, below), no jaw joints and no front toe; its front paw's tail joint is the toe.
  fox: {
    spine1: null,
    spine2: null,
    spine3: null,
    jawhinge: null,
    chin: null,
    'fpaw.L': null,
    'fpaw.R': null,
    'ftoe.L': 'fpaw.L',
    'ftoe.R': 'fpaw.R',
  },
  // The dragon's neck runs withers-neck1-neck2-neck3-skull, its tail tailbase-tail1..tail4-tailtip.
  dragon: { neck: null, tail1: null, tail2: null },
};

/** Chains compared by length fraction: the proposal's joints in order, and the rig's. */
export const CHAINS: Record<string, { proposed: string[]; rig: string[] }[]> = {
  wolf: [],
  // The fox's spine has three bones to the wolf's four: spine1 and spine2 compared along it.
  fox: [
    {
      proposed: ['pelvis', 'spine1', 'spine2', 'spine3', 'withers'],
      rig: ['pelvis', 'spine1', 'spine2', 'withers'],
    },
  ],
  dragon: [
    { proposed: ['withers', 'neck', 'skull'], rig: ['withers', 'neck1', 'neck2', 'neck3', 'skull'] },
    {
      proposed: ['tailbase', 'tail1', 'tail2', 'tailtip'],
      rig: ['tailbase', 'tail1', 'tail2', 'tail3', 'tail4', 'tailtip'],
    },
  ],
};
