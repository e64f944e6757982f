// The planted model floor (floors.py checks that the tree has one); its
// planted_fmt.h includes fmt past store/format.h.
