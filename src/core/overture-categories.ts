// Overture Maps place categories to the product's place types and card labels. Overture names a place's kind with
// a snake_case category: `categories.primary` / `categories.alternate` in releases up to late 2025, and
// `taxonomy.primary` / `taxonomy.hierarchy` / `taxonomy.alternates` plus a coarser `basic_category` after; the two
// vocabularies share most names, and the table holds both where they differ (e.g. `cinema` and `movie_theater`).
// A category maps to the place types of the category groups (categories.ts) when one applies (so a scan of a
// group finds the place), else to a raw type the rest of the code already reads (verticals.ts TYPE_VERTICALS,
// osm-tags.ts OSM_LABELS), and to the label shown on the card. The Overture category itself is kept on the row as well (`overture:category`):
// the table folds personal-injury and business law into `lawyer`, and scoring may tell them apart.
import { fallbackLabel, labelForPlaceType } from './categories';
import { OSM_LABELS } from './osm-tags';
import { refineVerticalByName, type Vertical } from './verticals';

/** What a category maps to: the place types stored, the card's label and, rarely, an OSM tag that says the same. */
export interface OvertureTarget {
  /**
   * Category groups' place types first, then raw types the verticals table knows; empty for places that are
   * no business.
   */
  types: readonly string[];
  label: string;
  /**
   * The OpenStreetMap tag (`key=value`) of the same kind, for kinds only the OSM tag tables place (a non-profit
   * is `office=ngo`): written into the row's tags so the scoring evidence reads it as it does on OSM rows.
   */
  osm?: string;
}

const t = (types: string | readonly string[], label?: string, osm?: string): OvertureTarget => {
  const list = typeof types === 'string' ? [types] : types;
  const target: OvertureTarget = { types: list, label: label ?? labelForPlaceType(list[0] ?? 'business') };
  if (osm) target.osm = osm;
  return target;
};

/** Targets and the categories (old and new vocabulary) that map to each. Data: one line per target. */
const GROUPS: ReadonlyArray<readonly [OvertureTarget, readonly string[]]> = [
  // Legal: every kind of law practice is a lawyer; the Overture category keeps the kind.
  [t('lawyer'), ['will_trust_probate_service', 'lawyer', 'legal_services', 'legal_service', 'attorney_or_law_firm', 'appellate_practice_lawyers', 'appellate_practice_lawyer', 'bankruptcy_law', 'business_law', 'civil_rights_lawyers', 'civil_rights_lawyer', 'contract_law', 'criminal_defense_law', 'disability_law', 'divorce_and_family_law', 'dui_law', 'employment_law', 'entertainment_law', 'estate_planning_law', 'general_litigation', 'immigration_law', 'ip_and_internet_law', 'medical_law', 'personal_injury_law', 'real_estate_law', 'social_security_law', 'tax_law', 'traffic_ticketing_law', 'wills_trusts_and_probate', 'workers_compensation_law', 'patent_law', 'tenant_and_eviction_law', 'notary_public', 'paralegal_services', 'paralegal_service', 'mediator']],
  // Healthcare
  [t('dentist'), ['dental_care', 'dental_hygiene', 'dentist', 'general_dentistry', 'cosmetic_dentist', 'endodontist', 'oral_surgeon', 'pediatric_dentist', 'periodontist', 'prosthodontist', 'dental_hygienist', 'teeth_whitening']],
  [t(['dentist', 'orthodontist'], 'Orthodontics'), ['orthodontic_care', 'orthodontist']],
  [t('doctor'), ['doctors_office', 'family_medicine', 'pediatrics', 'cardiology', 'surgery', 'allergy_and_immunology', 'plastic_reconstructive_and_aesthetic_surgery', 'nutrition_and_dietetics', 'clinic_or_treatment_center', 'healthcare_location', 'eye_care', 'doctor', 'health_and_medical', 'health_care', 'family_practice', 'internal_medicine', 'allergist', 'anesthesiologist', 'audiologist', 'cardiologist', 'cosmetic_surgeon', 'dermatologist', 'ear_nose_and_throat', 'endocrinologist', 'endoscopist', 'fertility', 'fertility_clinic', 'gastroenterologist', 'geneticist', 'geriatric_medicine', 'gerontologist', 'hematology', 'hepatologist', 'infectious_disease_specialist', 'nephrologist', 'neurologist', 'obstetrician_and_gynecologist', 'oncologist', 'ophthalmologist', 'retina_specialist', 'orthopedist', 'osteopathic_physician', 'osteopath', 'otologist', 'pain_management', 'pediatrician', 'phlebologist', 'physician_assistant', 'plastic_surgeon', 'podiatrist', 'podiatry', 'preventive_medicine', 'proctologist', 'pulmonologist', 'radiologist', 'rheumatologist', 'sleep_specialist', 'spine_surgeon', 'sports_medicine', 'surgeon', 'urologist', 'vascular_medicine', 'nurse_practitioner', 'concierge_medicine', 'medical_center', 'walk_in_clinic', 'urgent_care_clinic', 'community_health_center', 'womens_health_clinic', 'surgical_center', 'dialysis_clinic', 'diagnostic_services', 'diagnostic_service', 'diagnostic_imaging', 'ultrasound_imaging_center', 'laboratory_testing', 'weight_loss_center', 'speech_therapist', 'occupational_therapy', 'dietitian', 'nutritionist', 'midwife', 'acupuncture', 'naturopathic_holistic', 'alternative_medicine', 'traditional_chinese_medicine', 'iv_hydration', 'home_health_care', 'hearing_aid_provider', 'eye_care_clinic', 'laser_eye_surgery_lasik', 'abortion_clinic', 'cancer_treatment_center', 'rehabilitation_center', 'addiction_rehabilitation_center', 'alcohol_and_drug_treatment_center', 'alcohol_and_drug_treatment_centers', 'abuse_and_addiction_treatment', 'sperm_clinic', 'public_health_clinic']],
  [t(['doctor', 'chiropractor'], 'Chiropractor'), ['chiropractor']],
  [t(['doctor', 'optometrist'], 'Optometrist'), ['optometrist']],
  [t(['doctor', 'psychotherapist'], 'Mental Health'), ['mental_health', 'psychotherapy', 'psychiatry', 'counseling_and_mental_health', 'psychologist', 'psychotherapist', 'psychiatrist', 'child_psychiatrist', 'family_counselor', 'marriage_or_relationship_counselor', 'psychoanalyst', 'sex_therapist', 'behavior_analyst', 'hypnosis_hypnotherapy', 'hypnotherapy']],
  [t('hospital'), ['hospital', 'childrens_hospital', 'emergency_room', 'emergency_medicine']],
  [t('physiotherapist'), ['physical_therapy']],
  [t('veterinary_care'), ['veterinarian', 'veterinary_care', 'animal_hospital', 'emergency_pet_hospital', 'holistic_animal_care', 'animal_physical_therapy']],
  [t('pharmacy'), ['pharmacy']],
  [t(['pharmacy', 'drugstore'], 'Pharmacy'), ['drugstore']],
  // Beauty and wellness
  [t('beauty_salon'), ['beauty_salon', 'beauty_and_spa', 'beauty_service', 'eyebrow_service', 'eyelash_service', 'hair_removal', 'laser_hair_removal', 'waxing', 'threading_service', 'sugaring', 'makeup_artist', 'permanent_makeup', 'tanning_salon', 'spray_tanning', 'tanning_bed', 'esthetician', 'aesthetician', 'body_contouring', 'acne_treatment', 'foot_care']],
  [t(['beauty_salon', 'nail_salon'], 'Nail Salon'), ['nail_salon']],
  [t(['beauty_salon'], 'Skin Care'), ['skin_care', 'skin_care_and_makeup']],
  [t(['hair_care', 'hair_salon'], 'Hair Salon'), ['hair_salon', 'hair_stylist', 'blow_dry_blow_out_service', 'kids_hair_salon', 'hair_extensions', 'hair_replacement', 'hair_loss_center', 'hair_color_bar']],
  [t(['hair_care', 'barber_shop'], 'Barber'), ['barber_shop', 'barber', 'mens_grooming_salon']],
  [t('spa'), ['spas', 'spa', 'day_spa', 'health_spa', 'float_spa', 'sauna', 'public_bath_houses', 'public_bath_house', 'turkish_baths', 'aromatherapy', 'cryotherapy']],
  [t(['spa', 'doctor'], 'Med Spa'), ['medical_spa']],
  [t('massage_therapist'), ['massage', 'massage_therapy', 'reflexology']],
  [t('gym'), ['gym', 'fitness_trainer', 'boot_camp', 'boxing_gym', 'boxing_class', 'boxing_club', 'cardio_classes', 'cardio_class', 'cycling_classes', 'cycling_class', 'cycle_studio', 'barre_classes', 'barre_class', 'aerial_fitness_center', 'ems_training', 'health_and_wellness_club', 'sports_and_fitness_instruction', 'gymnastics_center', 'rock_climbing_gym', 'self_defense_classes', 'self_defense_class', 'martial_arts_club', 'brazilian_jiu_jitsu_club', 'karate_club', 'kickboxing_club', 'muay_thai_club', 'taekwondo_club', 'chinese_martial_arts_club']],
  [t('gym', 'Yoga & Pilates'), ['fitness_studio', 'yoga_studio', 'yoga_instructor', 'pilates_studio', 'tai_chi_studio', 'qi_gong_studio', 'meditation_center']],
  // Home services
  [t('plumber'), ['plumbing_service', 'plumbing', 'backflow_services', 'backflow_service', 'hydro_jetting', 'bathtub_and_sink_repairs', 'bathtub_and_sink_repair', 'water_heater_installation_repair', 'septic_services', 'septic_service']],
  [t('electrician'), ['electrical_service', 'electrician', 'electrical_consultant', 'lighting_fixtures_and_equipment', 'generator_installation_repair', 'home_automation']],
  [t(['general_contractor', 'hvac_contractor'], 'HVAC'), ['hvac_services', 'hvac_service', 'air_duct_cleaning_service']],
  [t('general_contractor'), ['building_contractor_service', 'building_construction_service', 'remodeling_service', 'handyman_service', 'carpentry_service', 'contractor', 'building_contractor', 'altering_and_remodeling_contractor', 'builders', 'builder', 'construction_services', 'construction_service', 'handyman', 'carpenter', 'flooring_contractors', 'flooring_contractor', 'carpet_installation', 'tiling', 'drywall_services', 'drywall_service', 'plasterer', 'stucco_services', 'stucco_service', 'masonry_concrete', 'masonry_contractors', 'masonry_contractor', 'stone_and_masonry', 'paving_contractor', 'bathroom_remodeling', 'kitchen_remodeling', 'closet_remodeling', 'countertop_installation', 'cabinet_sales_service', 'insulation_installation', 'siding', 'windows_installation', 'skylight_installation', 'door_sales_service', 'garage_door_service', 'fence_and_gate_sales_service', 'deck_and_railing_sales_service', 'patio_covers', 'foundation_repair', 'waterproofing', 'damage_restoration', 'fire_and_water_damage_restoration', 'demolition_service', 'excavation_service', 'solar_installation', 'gutter_service', 'chimney_service', 'chimney_sweep', 'fireplace_service', 'home_window_tinting', 'shutters', 'shades_and_blinds', 'refinishing_services', 'refinishing_service', 'wallpaper_installers', 'wallpaper_installer', 'home_service', 'home_inspector', 'home_energy_auditor', 'structural_engineer', 'home_security', 'security_systems', 'pool_and_hot_tub_services', 'pool_and_hot_tub_service', 'well_drilling', 'welders', 'welder']],
  [t('roofing_contractor'), ['roofing_service', 'roofing', 'ceiling_and_roofing_repair_and_service', 'ceiling_service']],
  [t('cleaning_service'), ['house_cleaning_service', 'business_cleaning_service', 'carpet_cleaning_service', 'cleaning_services', 'cleaning_service', 'home_cleaning', 'carpet_cleaning', 'janitorial_services', 'janitorial_service', 'office_cleaning', 'industrial_cleaning_services', 'industrial_cleaning_service', 'window_washing', 'pressure_washing', 'pool_cleaning', 'solar_panel_cleaning', 'grout_service', 'junk_removal_and_hauling', 'dumpster_rentals', 'dumpster_rental']],
  [t('landscaper'), ['landscaping_gardening_service', 'landscaping', 'gardener', 'lawn_service', 'tree_services', 'tree_service', 'landscape_architect', 'irrigation', 'irrigation_service', 'artificial_turf', 'snow_removal_service', 'indoor_landscaping']],
  [t('moving_company'), ['moving_service', 'movers', 'mover', 'packing_services', 'packing_service']],
  [t('painter'), ['painting_service', 'painting']],
  [t('locksmith', 'Locksmith'), ['locksmith_service', 'key_and_locksmith']],
  [t('pest_control', 'Pest Control'), ['pest_control_service', 'wildlife_control']],
  // Entertainment
  [t('movie_theater'), ['cinema', 'movie_theater', 'drive_in_theater', 'outdoor_movies', 'outdoor_movie_space']],
  [t('bowling_alley'), ['bowling_alley']],
  [t('museum'), ['museum', 'art_museum', 'asian_art_museum', 'cartooning_museum', 'contemporary_art_museum', 'costume_museum', 'decorative_arts_museum', 'design_museum', 'modern_art_museum', 'photography_museum', 'textile_museum', 'aviation_museum', 'childrens_museum', 'history_museum', 'civilization_museum', 'community_museum', 'military_museum', 'national_museum', 'science_museum', 'computer_museum', 'sports_museum', 'state_museum', 'planetarium', 'aquarium', 'zoo', 'petting_zoo']],
  [t('art_gallery'), ['art_gallery', 'arts_and_crafts_space', 'artist_studio', 'cultural_center', 'paint_and_sip', 'paint_and_sip_venue', 'paint_your_own_pottery', 'paint_your_own_pottery_venue']],
  [t('amusement_park'), ['amusement_park', 'arcade', 'water_park', 'trampoline_park', 'escape_rooms', 'escape_room', 'laser_tag', 'paintball', 'miniature_golf_course', 'go_kart_track', 'indoor_playcenter', 'amusement_attraction', 'haunted_house', 'carousel', 'virtual_reality_center', 'axe_throwing', 'zorbing_center', 'gaming_venue', 'eatertainment']],
  [t('amusement_park', 'Entertainment Venue'), ['theatre', 'theatre_venue', 'theaters_and_performance_venues', 'performing_arts', 'performing_arts_venue', 'comedy_club', 'music_venue', 'topic_concert_venue', 'jazz_and_blues', 'karaoke', 'opera_and_ballet', 'dinner_theater', 'casino', 'stadium_arena', 'venue_and_event_space', 'event_venue']],
  [t('night_club', 'Adult Entertainment'), ['adult_entertainment', 'adult_entertainment_venue', 'strip_club', 'striptease_dancer', 'erotic_massage', 'erotic_massage_venue']],
  // Education
  [t('school'), ['school', 'elementary_school', 'middle_school', 'high_school', 'public_school', 'private_school', 'charter_school', 'montessori_school', 'religious_school', 'waldorf_school', 'education']],
  [t('school', 'Preschool'), ['child_care_or_day_care', 'preschool', 'day_care_preschool', 'child_care_and_day_care']],
  [t('school', 'Specialty School'), ['specialty_school', 'art_school', 'bartending_school', 'cooking_school', 'cosmetology_school', 'dance_school', 'dance_studio', 'drama_school', 'driving_school', 'dui_school', 'traffic_school', 'flight_school', 'language_school', 'massage_school', 'music_school', 'nursing_school', 'sports_school', 'surfing_school', 'ski_and_snowboard_school', 'computer_coaching', 'firearm_training', 'cpr_classes', 'cpr_class', 'first_aid_class', 'photography_classes', 'photography_class', 'cooking_classes', 'adult_education']],
  [t('school', 'Tutoring'), ['tutoring_service', 'tutoring_center', 'private_tutor', 'test_preparation', 'educational_services', 'educational_service', 'college_counseling', 'after_school_program']],
  [t('college', 'College'), ['vocational_technical_school', 'vocational_and_technical_school', 'medical_school']],
  [t(['college', 'university'], 'College/University'), ['college_university', 'architecture_schools', 'architecture_school', 'business_schools', 'business_school', 'engineering_schools', 'engineering_school', 'law_schools', 'law_school', 'medical_sciences_schools', 'medical_sciences_school', 'dentistry_schools', 'dentistry_school', 'pharmacy_schools', 'pharmacy_school', 'veterinary_schools', 'veterinary_school', 'science_schools', 'science_school', 'campus_building']],
  // Automotive: dealers of every kind of vehicle
  [t('car_dealer'), ['car_dealer', 'automotive_dealer', 'vehicle_dealer', 'used_car_dealer', 'truck_dealer', 'commercial_vehicle_dealer', 'motorcycle_dealer', 'motorsport_vehicle_dealer', 'recreational_vehicle_dealer', 'scooter_dealers', 'scooter_dealer', 'golf_cart_dealer', 'trailer_dealer', 'boat_dealer', 'car_broker', 'car_buyer', 'automobile_leasing', 'car_auction', 'mobile_home_dealer']],
  [t('car_repair'), ['auto_repair_service', 'vehicle_service', 'auto_detailing_service', 'automotive_repair', 'automotive_services_and_repair', 'automotive', 'auto_body_shop', 'auto_customization', 'auto_detailing', 'auto_glass_service', 'car_window_tinting', 'windshield_installation_and_repair', 'auto_restoration_services', 'auto_restoration_service', 'auto_security', 'auto_upholstery', 'auto_electrical_repair', 'brake_service_and_repair', 'engine_repair_service', 'exhaust_and_muffler_repair', 'hybrid_car_repair', 'motorcycle_repair', 'motorsport_vehicle_repair', 'recreation_vehicle_repair', 'tire_dealer_and_repair', 'tire_shop', 'tire_repair_shop', 'trailer_repair', 'transmission_repair', 'wheel_and_rim_repair', 'oil_change_station', 'car_inspection', 'emissions_inspection', 'smog_check_station', 'towing_service', 'truck_repair', 'roadside_assistance', 'emergency_roadside_service', 'mobile_dent_repair', 'vehicle_wrap', 'car_stereo_installation', 'boat_service_and_repair']],
  [t('car_wash'), ['car_wash']],
  [t('auto_parts_store'), ['auto_parts_and_supply_store', 'auto_parts_store', 'automotive_parts_and_accessories', 'car_stereo_store', 'motorcycle_gear', 'motorsports_store', 'recreational_vehicle_parts_and_accessories', 'vehicle_parts_store', 'boat_parts_and_supply_store', 'boat_parts_store']],
  [t('gas_station'), ['gas_station', 'fueling_station', 'truck_gas_station', 'truck_stop', 'fuel_dock']],
  [t('electric_vehicle_charging_station', 'EV Charging'), ['ev_charging_station', 'electric_vehicle_charging_station']],
  // Finance
  [t('bank', 'Bank'), ['banks', 'bank', 'bank_credit_union', 'business_banking_service']],
  [t('credit_union'), ['credit_union']],
  [t('atm'), ['atms', 'atm']],
  [t('insurance_agency'), ['insurance_agency', 'auto_insurance', 'farm_insurance', 'fidelity_and_surety_bonds', 'home_and_rental_insurance', 'life_insurance', 'health_insurance_office', 'pet_insurance', 'public_adjuster']],
  [t('accounting'), ['tax_preparation_service', 'accountant', 'bookkeeper', 'accountant_or_bookkeeper', 'tax_services', 'tax_service', 'payroll_services', 'payroll_service', 'billing_services']],
  [t('accounting', 'Financial Services'), ['financial_service', 'financial_advising', 'investing', 'investment_management_company', 'trusts', 'brokers', 'broker', 'stock_and_bond_brokers', 'stock_and_bond_broker', 'business_brokers', 'business_broker', 'credit_and_debt_counseling', 'debt_relief_services', 'debt_relief_service', 'business_financing', 'private_equity_firm', 'holding_companies', 'holding_company', 'currency_exchange', 'money_transfer_services', 'money_transfer_service', 'collection_agencies', 'collection_agency']],
  [t('accounting', 'Loans & Mortgages'), ['mortgage_broker', 'mortgage_lender', 'installment_loans', 'auto_loan_provider', 'check_cashing_payday_loans', 'loan_provider', 'bail_bonds_service']],
  // Furniture and home furnishing stores
  [t('furniture_store'), ['furniture_store', 'mattress_store', 'outdoor_furniture_store', 'baby_gear_and_furniture', 'baby_gear_and_furniture_store', 'furniture_accessory_store', 'office_equipment', 'kitchen_and_bath', 'kitchen_and_bath_store', 'bathroom_fixture_stores', 'bathroom_fixture_store', 'appliance_store', 'furniture_rental_service']],
  [t('home_goods_store', 'Home Goods'), ['interior_design_service', 'home_goods_store', 'home_decor', 'home_decor_store', 'bedding_and_bath_stores', 'bedding_and_bath_store', 'linen', 'linen_store', 'rug_store', 'carpet_store', 'flooring_store', 'tile_store', 'lighting_store', 'window_treatment_store', 'home_and_garden', 'home_and_garden_store', 'interior_design']],
  // Restaurants, bars, hotels (raw types the verticals table knows)
  [t('restaurant'), ['restaurant', 'eat_and_drink', 'food_and_drink', 'casual_eatery', 'bistro', 'diner', 'gastropub', 'steakhouse', 'buffet_restaurant', 'pancake_house', 'breakfast_and_brunch_restaurant', 'salad_bar', 'soul_food', 'supper_club', 'canteen', 'tapas_bar', 'dim_sum_restaurant', 'food_court', 'food_truck', 'pop_up_restaurant']],
  [t('fast_food', 'Fast Food'), ['fast_food_restaurant', 'sandwich_shop', 'food_stand', 'street_vendor', 'kiosk', 'delicatessen', 'bagel_shop', 'wrap_restaurant', 'hot_dog_restaurant', 'burger_restaurant', 'chicken_restaurant', 'chicken_wings_restaurant', 'pizza_restaurant', 'taco_restaurant']],
  [t('cafe'), ['cafe', 'internet_cafe', 'animal_cafe', 'cat_cafe', 'dog_cafe']],
  [t('coffee_shop'), ['coffee_shop', 'coffee_roastery', 'tea_room', 'bubble_tea', 'bubble_tea_shop', 'smoothie_juice_bar', 'juice_bar', 'kombucha_bar']],
  [t('ice_cream', 'Ice Cream & Desserts'), ['ice_cream_shop', 'ice_cream_and_frozen_yoghurt', 'frozen_yoghurt_shop', 'frozen_yogurt_shop', 'gelato', 'desserts', 'dessert_shop', 'donuts', 'donut_shop', 'cupcake_shop', 'shaved_ice_shop', 'candy_store', 'chocolatier']],
  [t('bakery', 'Bakery'), ['bakery', 'patisserie_cake_shop', 'custom_cakes_shop']],
  [t('bar'), ['bar', 'cocktail_bar', 'wine_bar', 'beer_bar', 'sports_bar', 'hotel_bar', 'dive_bar', 'gay_bar', 'hookah_bar', 'piano_bar', 'sake_bar', 'speakeasy', 'tiki_bar', 'whiskey_bar', 'cigar_bar', 'lounge', 'bar_crawl']],
  [t('pub'), ['pub', 'irish_pub', 'beer_garden']],
  [t('brewery'), ['brewery', 'cidery', 'distillery', 'brewery_winery_distillery']],
  [t('winery'), ['winery', 'wine_tasting_room']],
  [t('night_club', 'Night Club'), ['dance_club', 'salsa_club', 'nightlife_venue', 'club_crawl']],
  [t('hotel'), ['hotel', 'resort', 'beach_resort', 'ski_resort', 'inn', 'lodge', 'accommodation', 'lodging', 'bed_and_breakfast', 'service_apartments', 'service_apartment', 'holiday_rental_home', 'cottage', 'cabin']],
  [t('motel'), ['motel']],
  [t('hostel'), ['hostel']],
  [t('guest_house'), ['guest_house']],
  // Real estate
  [t('real_estate_agency', 'Real Estate'), ['real_estate_agency', 'property_management_service', 'real_estate_agent', 'real_estate', 'real_estate_service', 'apartment_agent', 'property_management', 'commercial_real_estate', 'real_estate_investment', 'home_developer', 'escrow_services', 'escrow_service', 'home_staging', 'vacation_rental_agents', 'vacation_rental_agent', 'apartments', 'apartment', 'condominium']],
  // Shops (OSM's raw shop values, as an extract stores them)
  [t('clothes'), ['clothing_store', 'fashion', 'fashion_and_apparel_store', 'boutique', 'fashion_boutique', 'womens_clothing_store', 'mens_clothing_store', 'childrens_clothing_store', 'formal_wear_store', 'bridal_shop', 'lingerie_store', 't_shirt_store', 'designer_clothing', 'used_vintage_and_consignment', 'second_hand_clothing_store', 'shoe_store', 'fashion_accessories_store']],
  [t('doityourself', 'Hardware'), ['hardware_store', 'home_improvement_store', 'do_it_yourself_store', 'building_supply_store', 'lumber_store', 'paint_store']],
  [t('optician'), ['eyewear_and_optician', 'eyewear_store', 'sunglasses_store']],
  [t('supermarket', 'Grocery'), ['grocery_store', 'supermarket', 'specialty_grocery_store', 'international_grocery_store', 'asian_grocery_store', 'organic_grocery_store', 'health_food_store']],
  [t('convenience', 'Convenience Store'), ['convenience_store']],
  [t('alcohol', 'Liquor Store'), ['liquor_store', 'beer_wine_and_spirits', 'beer_wine_spirits_store']],
  [t('cannabis', 'Cannabis'), ['cannabis_dispensary', 'cannabis_clinic', 'cannabis_collective', 'medical_cannabis_referral']],
  [t('weapons', 'Firearms'), ['gun_and_ammo', 'gun_and_ammo_store', 'gunsmith', 'shooting_range']],
  [t('jewelry', 'Jewelry'), ['jewelry_store', 'watch_store', 'gold_buyer', 'diamond_dealer']],
  [t('mobile_phone', 'Mobile Phones'), ['mobile_phone_store', 'mobile_phone_accessories', 'mobile_phone_accessory_store']],
  [t('electronics', 'Electronics'), ['electronics', 'electronics_store', 'computer_store', 'video_game_store', 'audio_visual_equipment_store']],
  [t('books', 'Bookstore'), ['bookstore', 'books_mags_music_and_video', 'comic_books_store', 'used_bookstore']],
  [t('florist', 'Florist'), ['florist', 'flowers_and_gifts_shop', 'gift_shop', 'souvenir_shop', 'souvenir_store']],
  [t('pet', 'Pet Store'), ['pet_store', 'pet_services', 'pets', 'pet_groomer', 'pet_boarding', 'pet_sitting', 'dog_trainer', 'pet_training']],
  [t('department_store', 'Department Store'), ['department_store', 'discount_store', 'superstore', 'wholesale_store', 'outlet_store']],
  [t('mall', 'Shopping Center'), ['shopping_center', 'public_market', 'farmers_market']],
  [t([], 'Shop'), ['shopping', 'retail', 'specialty_store', 'online_shop', 'pop_up_shop', 'pop_up_store']],
  [t([], 'Arts & Entertainment'), ['arts_and_entertainment']],
  [t('dry_cleaning', 'Dry Cleaning & Laundry'), ['dry_cleaning', 'laundry_services', 'laundry_service', 'laundromat', 'sewing_and_alterations', 'shoe_repair']],
  [t('toys', 'Toy Store'), ['toy_store', 'hobby_shop', 'tabletop_games', 'tabletop_games_store']],
  [t('sports', 'Sporting Goods'), ['sporting_goods', 'sporting_goods_store', 'bike_store', 'bicycle_shop', 'outdoor_gear', 'outdoor_store']],
  [t('cosmetics', 'Beauty Supply'), ['cosmetic_and_beauty_supplies', 'cosmetic_and_beauty_supply_store', 'perfume_store']],
  [t('tobacco', 'Tobacco & Vape'), ['tobacco_shop', 'e_cigarette_store', 'vape_shop']],
  [t('craft', 'Arts & Crafts'), ['arts_and_crafts', 'arts_and_crafts_store', 'art_supply_store', 'craft_shop', 'craft_store', 'fabric_store', 'framing_store', 'cards_and_stationery_store']],
  [t('musical_instrument', 'Musical Instruments'), ['musical_instrument_store', 'guitar_store', 'piano_store']],
  [t('butcher', 'Butcher'), ['butcher_shop', 'meat_shop', 'seafood_market', 'fishmonger', 'cheese_shop']],
  [t('nutrition_supplements', 'Vitamins & Supplements'), ['vitamins_and_supplements', 'vitamin_and_supplement_store']],
  [t('medical_supply', 'Medical Supply'), ['medical_supply', 'medical_supply_store', 'hearing_aids', 'hearing_aid_store']],
  [t('photo', 'Photography Store'), ['photography_store_and_services', 'camera_and_photography_store']],
  [t('sports_centre'), ['sports_club_and_league', 'sports_and_recreation_venue', 'golf_course', 'ice_skating_rink', 'skating_rink', 'swimming_pool', 'tennis_court', 'golf_club', 'country_club']],
  [t('tattoo', 'Tattoo & Piercing'), ['tattoo_or_piercing_salon', 'tattoo_and_piercing', 'tattoo', 'piercing']],
  // Offices and services that are businesses of no category group's type (OSM's office=company and office=it)
  [t('company', 'Company'), ['corporate_office', 'business', 'private_establishments_and_corporates', 'services_and_business', 'business_to_business', 'business_to_business_services', 'business_to_business_service', 'b2b_science_and_technology', 'biotechnology_company', 'business_manufacturing_and_supply', 'industrial_equipment', 'manufacturer', 'wholesaler', 'energy_company', 'engineering_services', 'engineering_service']],
  [t('company', 'Professional Services'), ['professional_services', 'professional_service', 'business_consulting', 'consultant_and_general_service', 'business_management_services', 'business_management_service', 'coworking_space', 'shared_office_space', 'architect', 'architectural_designer', 'translation_services', 'translation_service', 'translating_and_interpreting_services', 'appraisal_services', 'appraisal_service', 'court_reporter', 'process_servers', 'process_server', 'private_investigation', 'security_services', 'security_service', 'life_coach', 'career_counseling']],
  [t('company', 'Event Services'), ['event_planning', 'party_and_event_planning', 'wedding_planning', 'caterer', 'event_photography', 'photographer', 'session_photography', 'videographer', 'dj_service', 'florist_designer', 'floral_designer', 'party_equipment_rental']],
  [t('company', 'Marketing & Advertising'), ['advertising_agency', 'marketing_agency', 'internet_marketing_service', 'public_relations', 'social_media_agency', 'marketing_consultant', 'business_advertising', 'graphic_designer', 'sign_making', 'printing_services', 'printing_service', 'commercial_printer', 'screen_printing_t_shirt_printing']],
  [t('company', 'Staffing'), ['employment_agencies', 'employment_agency', 'temp_agency', 'executive_search_consultants', 'human_resource_services', 'human_resource_service', 'talent_agency']],
  [t('company', 'Media'), ['mass_media', 'media_and_news', 'media_news_company', 'broadcasting_media_production', 'radio_station', 'television_station', 'topic_publisher', 'print_media', 'video_film_production', 'movie_television_studio', 'music_production', 'recording_and_rehearsal_studio', 'record_label', 'media_news_website']],
  [t('it', 'IT Services'), ['software_development', 'information_technology_company', 'it_service_and_computer_repair', 'it_support_and_service', 'it_consultant', 'web_designer', 'web_hosting_service', 'computer_hardware_company', 'data_recovery', 'e_commerce_service', 'internet_service_provider', 'telecommunications_company', 'telecommunications', 'mobile_phone_repair', 'electronics_repair_shop']],
  [t('company', 'Storage'), ['self_storage_facility', 'storage_facility']],
  [t('company', 'Shipping'), ['shipping_center', 'courier_and_delivery_services', 'courier_and_delivery_service', 'freight_and_cargo_service', 'mailbox_center']],
  [t('company', 'Travel Agency'), ['travel_services', 'travel_agents', 'travel_agent', 'travel', 'travel_company', 'tours', 'tour']],
  [t('company', 'Rental'), ['car_rental_agency', 'car_rental_service', 'truck_rentals', 'truck_rental_service', 'rental_services', 'rental_service', 'motorcycle_rentals', 'rv_rentals', 'limo_services', 'limo_service']],
  [t('funeral_directors', 'Funeral Services'), ['funeral_services_and_cemeteries', 'funeral_service', 'cremation_services', 'cremation_service', 'mortuary_services', 'mortuary_service']],
  [t('company', 'Senior Living'), ['senior_living_facility', 'retirement_home', 'assisted_living_facility', 'skilled_nursing', 'memory_care', 'hospice']],
  // Public bodies, non-profits and places that are no business: kept, labelled, and scored as such
  [t('local_government_office', 'Government'), ['public_service_and_government', 'community_and_government', 'central_government_office', 'federal_government_offices', 'local_and_state_government_offices', 'government_services', 'government_office', 'department_of_motor_vehicles', 'department_of_social_service', 'tax_office', 'unemployment_office', 'registry_office', 'library', 'public_and_government_association', 'armed_forces_branch', 'health_department']],
  [t('city_hall', 'City Hall'), ['town_hall', 'civic_center']],
  [t('courthouse'), ['courthouse']],
  [t('police'), ['police_department', 'law_enforcement']],
  [t('fire_station'), ['fire_department']],
  [t('post_office'), ['post_office']],
  [t('embassy'), ['embassy', 'immigration_and_naturalization']],
  [t('ngo', 'Non-Profit', 'office=ngo'), ['community_services_non_profits', 'community_service', 'social_service_organizations', 'social_service_organization', 'charity_organization', 'non_governmental_association', 'disability_services_and_support_organization', 'social_and_human_services', 'social_and_human_service', 'environmental_conservation_organization', 'labor_union', 'political_organization', 'organization', 'youth_organizations', 'youth_organization', 'food_banks', 'food_bank', 'homeless_shelter', 'senior_citizen_services', 'senior_citizen_service', 'volunteer_association', 'community_center', 'religious_organization', 'social_club', 'fraternal_organization', 'veterans_organization']],
  [t('place_of_worship', 'Place of Worship'), ['church_cathedral', 'catholic_church', 'baptist_church', 'anglican_church', 'episcopal_church', 'evangelical_church', 'pentecostal_church', 'jehovahs_witness_kingdom_hall', 'place_of_worship', 'christian_place_of_worshop', 'protestant_place_of_worship', 'roman_catholic_place_of_worshop', 'buddhist_temple', 'buddhist_place_of_worship', 'hindu_temple', 'hindu_place_of_worship', 'sikh_temple', 'temple', 'mission']],
  [t('mosque'), ['mosque', 'muslim_place_of_worship']],
  [t('synagogue'), ['synagogue', 'jewish_place_of_worship']],
  [t('parking'), ['parking', 'motorcycle_parking', 'park_and_rides', 'park_and_ride', 'bike_parking']],
  [t('transit_station', 'Transit Station'), ['transportation', 'travel_and_transportation', 'light_rail_and_subway_stations', 'light_rail_and_subway_station', 'metro_station', 'transport_interchange', 'airport', 'airport_terminal', 'ferry_service']],
  [t('bus_station'), ['bus_station']],
  [t('train_station'), ['train_station']],
  [t('taxi_stand', 'Taxi'), ['taxi_service', 'taxi_rank', 'taxi_stand', 'ride_sharing', 'car_sharing']],
  [t([], 'Landmark'), ['landmark_and_historical_building', 'architectural_landmark', 'monument', 'memorial_park', 'sculpture_statue', 'street_art', 'attractions_and_activities', 'cultural_and_historic', 'castle', 'lighthouse', 'tower', 'bridge', 'skyscraper', 'fountain']],
  [t([], 'Park'), ['park', 'dog_park', 'playground', 'public_plaza', 'plaza', 'garden', 'botanical_garden', 'community_gardens', 'community_garden', 'national_park', 'state_park', 'nature_reserve', 'hiking_trail', 'trail', 'beach', 'lake', 'river', 'mountain']],
]; // prettier-ignore

/** Every category the table names, with its target. */
export const OVERTURE_CATEGORIES: ReadonlyMap<string, OvertureTarget> = (() => {
  const map = new Map<string, OvertureTarget>();
  for (const [target, categories] of GROUPS) {
    for (const c of categories) if (!map.has(c)) map.set(c, target);
  }
  return map;
})();

/**
 * Families the table does not list one by one: a cuisine's restaurant (`peruvian_restaurant`), a kind of law
 * (`aviation_law`), of museum or of doctor's practice. Tried after the table, in this order.
 */
const FAMILIES: ReadonlyArray<readonly [RegExp, OvertureTarget]> = [
  [/_law$|_lawyers?$|_attorneys?$/, t('lawyer')],
  [/_dentist$|_dentistry$/, t('dentist')],
  [/_restaurant$|_bistro$|_steakhouse$/, t('restaurant')],
  [/_bar$/, t('bar')],
  [/_museum$/, t('museum')],
  [/_car_dealer$|_vehicle_dealer$|_dealership$/, t('car_dealer')],
  [/_insurance$/, t('insurance_agency')],
  [/_ologist$|_medicine$|_clinic$|_surgeon$/, t('doctor')],
  [/_school$/, t('school', 'Specialty School')],
];

/** The target of one Overture category (trimmed, lower case), or undefined when the table does not place it. */
export function overtureTarget(category: string | null | undefined): OvertureTarget | undefined {
  const c = category?.trim().toLowerCase();
  if (!c) return undefined;
  const exact = OVERTURE_CATEGORIES.get(c);
  if (exact) return exact;
  for (const [pattern, target] of FAMILIES) if (pattern.test(c)) return target;
  return undefined;
}

/** The categories of one place as read from an Overture file (either vocabulary). */
export interface OvertureCategoryFields {
  primary: string | null;
  alternates: readonly string[];
  /** `basic_category` (newer releases). */
  basic?: string | null;
  /** `taxonomy.hierarchy`, most general first (newer releases). */
  hierarchy?: readonly string[];
}

/** How a place was placed: what its types and label came from. */
export type PlacedBy = 'primary' | 'hierarchy' | 'basic' | 'alternate' | 'name' | 'raw';

export interface PlacedCategory extends OvertureTarget {
  by: PlacedBy;
}

/**
 * Raw types for the verticals a business name alone can show (NAME_VERTICAL_RULES): a place with no category
 * whose name says "Plumbing" is stored as a plumber.
 */
const NAME_TYPES: Partial<Record<Vertical, OvertureTarget>> = {
  orthodontics: t(['dentist', 'orthodontist'], 'Orthodontics'),
  hvac: t(['general_contractor', 'hvac_contractor'], 'HVAC'),
  plumbing: t('plumber'),
  roofing: t('roofing_contractor'),
  dental: t('dentist'),
  legal: t('lawyer'),
  legal_corporate: t('lawyer'),
  insurance: t('insurance_agency'),
  real_estate: t('real_estate_agency', 'Real Estate'),
  bar: t('bar'),
  furniture: t('furniture_store'),
  government: t('local_government_office', 'Government'),
  nonprofit: t('ngo', 'Non-Profit', 'office=ngo'),
};

/** The target a business name gives by the name rules of verticals.ts, or undefined. */
export function targetFromName(name: string): OvertureTarget | undefined {
  const vertical = refineVerticalByName('other', name);
  return vertical === 'other' ? undefined : NAME_TYPES[vertical];
}

/**
 * A place's types and label from its categories: the primary category, else (newer releases) the nearest of its
 * taxonomy hierarchy or its basic category the table places; then, for a primary the table does not place, its
 * alternates, and last the primary itself as a raw type (as an OSM import stores a tag value it does not know).
 * A place without a primary category is placed by its alternates or, failing those, its name; undefined when
 * neither places it (left out as uncategorised).
 */
export function placeCategories(c: OvertureCategoryFields, name: string): PlacedCategory | undefined {
  const primary = c.primary?.trim().toLowerCase() || null;
  const direct = overtureTarget(primary);
  if (direct) return { ...direct, by: 'primary' };
  // The hierarchy's first entry is the theme ('shopping', 'services_and_business'): too broad to place a place.
  for (const h of (c.hierarchy ?? []).slice(1).reverse()) {
    const target = overtureTarget(h);
    if (target) return { ...target, by: 'hierarchy' };
  }
  const basic = overtureTarget(c.basic);
  if (basic) return { ...basic, by: 'basic' };
  for (const a of c.alternates) {
    const target = overtureTarget(a);
    if (target) return { ...target, by: 'alternate' };
  }
  if (primary) return { types: [primary], label: OSM_LABELS[primary] ?? fallbackLabel(primary), by: 'raw' };
  const byName = targetFromName(name);
  return byName ? { ...byName, by: 'name' } : undefined;
}
