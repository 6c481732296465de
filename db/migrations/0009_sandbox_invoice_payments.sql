-- The sandbox's invoices list every charge that tried to pay them, as Stripe's do (their
-- payments); the billing sync tells a plan's charges from one-time payments by that list.
-- Invoices made before it get the list from their charges, oldest first.
UPDATE "sandbox_object" AS "invoice"
SET "data" = jsonb_set(
  "invoice"."data",
  '{payment_intents}',
  coalesce(
    (
      SELECT jsonb_agg("charge"."id" ORDER BY "charge"."created_at", "charge"."id")
      FROM "sandbox_object" AS "charge"
      WHERE "charge"."type" = 'payment_intent'
        AND (
          "charge"."data" -> 'metadata' ->> 'invoice' = "invoice"."id"
          OR "charge"."id" = "invoice"."data" ->> 'payment_intent'
        )
    ),
    '[]'::jsonb
  )
)
WHERE "invoice"."type" = 'invoice' AND NOT ("invoice"."data" ? 'payment_intents');
