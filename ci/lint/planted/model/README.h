// An empty model floor: the planted tree needs one (floors.py checks for it).
