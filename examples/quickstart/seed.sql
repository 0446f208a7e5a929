-- Run by svc when shop.db does not exist yet (adapter option `seed`).
CREATE TABLE products (
  id       INTEGER PRIMARY KEY,
  name     TEXT    NOT NULL,
  category TEXT    NOT NULL,
  price    REAL    NOT NULL,
  stock    INTEGER NOT NULL
);

CREATE TABLE orders (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  product_id INTEGER NOT NULL REFERENCES products (id),
  quantity   INTEGER NOT NULL CHECK (quantity > 0),
  customer   TEXT    NOT NULL,
  placed_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

INSERT INTO products (id, name, category, price, stock) VALUES
  (1, 'Espresso beans 1 kg', 'coffee', 24.50, 40),
  (2, 'Filter coffee 500 g', 'coffee', 11.90, 85),
  (3, 'Ceramic pour-over dripper', 'equipment', 29.00, 12),
  (4, 'Gooseneck kettle', 'equipment', 54.00, 6),
  (5, 'Paper filters (100)', 'supplies', 4.80, 230),
  (6, 'Burr grinder', 'equipment', 129.00, 3),
  (7, 'Oat milk 1 l', 'supplies', 2.40, 150),
  (8, 'Decaf beans 500 g', 'coffee', 13.20, 22),
  (9, 'Travel mug', 'equipment', 18.00, 0),
  (10, 'Descaling tablets', 'supplies', 7.50, 64);
