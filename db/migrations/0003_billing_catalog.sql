CREATE TABLE "billing_price" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"nickname" text NOT NULL,
	"plan" text NOT NULL,
	"unit_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"active" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_idempotency_key" (
	"key" text PRIMARY KEY NOT NULL,
	"object_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_object" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"customer" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_object_id_prefix" CHECK ("sandbox_object"."id" ~ '^[a-z]+_[A-Za-z0-9]+$')
);
--> statement-breakpoint
CREATE INDEX "billing_price_active_idx" ON "billing_price" USING btree ("active","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_object_type_idx" ON "sandbox_object" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_object_customer_idx" ON "sandbox_object" USING btree ("customer","type");