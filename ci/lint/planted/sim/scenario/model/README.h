// Planted for ci/lint/floors.py: a folder inside a floor named after a floor.
#pragma once
