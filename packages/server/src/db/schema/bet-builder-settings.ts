/** A white label's own bet builder settings; a null column takes the platform default. */
export interface BetBuilderSettingsTable {
  white_label_id: string;
  /** The builder margin, a fraction in [0, 1). */
  margin: string | null;
  /** Most legs in one builder, 1..10. */
  max_legs: number | null;
}
