// Category playbooks: what a media seller says to each vertical of the scoring model's propensity table. Text
// only; the generator in playbook.ts fills the tokens and mixes these lines with lines built from the
// business's own data.
//
// Tokens: {name} business name, {area} city or "your area", {noun} what the business is ("dental practice"),
// {customers} who it sells to, {job} the conversion a campaign drives ("a new-patient appointment").
import type { ObjectionHandler } from './schema';
import type { PlaybookVertical, Trade } from './verticals';

export interface VerticalPlaybook {
  /** What the business is, by trade where the vertical has trades. */
  noun: string | Partial<Record<Exclude<Trade, null>, string>>;
  customers: string;
  job: string;
  decisionMaker: string;
  /** What the first flight's creative is built around. */
  offer: string;
  /** When to call, added to DEFAULT_BEST_TIME_TO_CALL. */
  timingNote: string;
  openingAngle: string;
  valueProposition: string;
  talkingPoints: string[];
  objections: ObjectionHandler[];
  angles: string[];
  insights: string[];
  questions: string[];
  hooks: string[];
  plan: string[];
  channelWhy: { ctv: string; olv: string; display: string; sem: string };
}

export const PLAYBOOKS: Readonly<Record<PlaybookVertical, VerticalPlaybook>> = {
  auto_dealer: {
    noun: 'dealership',
    customers: 'car shoppers',
    job: 'a test drive',
    decisionMaker:
      'the general manager or general sales manager (the dealer principal signs annual commitments)',
    offer: 'a month-end or model-year sales event, with a service special as the second message',
    timingNote: 'avoid Saturdays and the last three days of the month, when the store is closing deals',
    openingAngle:
      'getting you onto the short list of in-market car shoppers before they pick which lots to visit',
    valueProposition:
      '{name} becomes the dealership in-market shoppers in {area} see first and most often, on streaming TV, online video and search, so more test drives and service visits start with you, measured by matching sold customers back to the households that saw the ads.',
    talkingPoints: [
      'Car shoppers research for weeks and visit only a couple of lots; streaming TV and online video put {name} on that short list before they search a model.',
      'Streaming TV can be aimed at in-market auto intenders in the ZIP codes of your primary market area, so you stop paying for viewers who will never drive to {area}.',
      "We can run conquest messaging into competing dealers' ZIP codes and retarget your website visitors with video and display until they book a test drive.",
      'Search ads on model, trim and "dealer near me" searches catch shoppers at the moment they are ready to visit, and TV exposure lifts searches for your name.',
      'Your service drive is a second profit centre: a fixed-ops message keeps out-of-warranty customers coming back instead of going to quick-lube chains.',
    ],
    objections: [
      {
        objection: 'The manufacturer and our regional ad group already handle our advertising.',
        response:
          "Tier 1 and Tier 2 sell the brand and the region; they don't sell {name} against the other dealers of the same brand. Tier 3 is where you win the local shopper, and a lot of what we run can qualify for co-op reimbursement. Let's check your program's rules together.",
      },
      {
        objection: 'Our agency and digital vendor take care of all of this.',
        response:
          'Good, we work alongside agencies every day. We bring local cable and streaming inventory and household targeting they often cannot buy directly. Let us get on a call with them and compare audience reach; nobody gets replaced.',
      },
      {
        objection: 'We already pay for third-party listing sites.',
        response:
          "Listing sites put your cars next to every competitor's. TV and streaming build a preference for {name} before the shopper compares on a listing page, so those leads close better.",
      },
      {
        objection: 'Inventory is tight; there is no point advertising.',
        response:
          "Tight inventory is exactly when service, pre-owned and 'we buy cars' messages pay off. We can switch the message to any of them within a week without a new shoot.",
      },
    ],
    angles: [
      'Most dealers in a market run the same price-and-payment message; a "why buy here" story (people, service, community) stands out on streaming TV.',
      'When several same-brand dealers sell the same car, the one shoppers have seen most often tends to get the first visit: own local share of voice.',
      "Household-targeted streaming can conquest the neighbouring dealer's ZIP codes, which newspaper and radio cannot aim at.",
      'Pre-owned buyers shop more locally and more on price; online video and display fed by live inventory move aged units.',
    ],
    insights: [
      'Month-end, quarter-end and model-year closeouts are the natural flight windows; plan creative and budget around them.',
      'Manufacturer co-op programs often reimburse part of qualifying local media, with creative rules (logos, pricing disclaimers) that must be followed.',
      'Shoppers exposed to TV and streaming tend to search for the dealership by name: track branded search volume and direct website traffic as the footprint of TV.',
      "Match sold customers' addresses back to households that saw the streaming ads to prove sales lift, not just clicks.",
      'Service customers are the most profitable repeat relationship a dealership has; fixed-ops campaigns justify year-round spend between sales events.',
      'Dealers live by units, gross and cost per sale: speak in those terms, not impressions.',
    ],
    questions: [
      'How many new and pre-owned units do you need to move a month, and where are you against that today?',
      'Which ZIP codes do your sold customers come from, and where would you like more of them?',
      'How much of your budget is manufacturer co-op, and what rules come with it?',
      'Which dealers do you lose deals to most often, and why do you think that is?',
      'How is your service drive doing, and is fixed ops a priority this year?',
    ],
    hooks: [
      '{name}: on the biggest screen in every in-market household in {area}.',
      'Same cars as the dealer down the road. Give shoppers a reason to drive to {name} first.',
      'Own month-end: a streaming TV flight timed to your sales push.',
    ],
    plan: [
      'Pull the last 90 days of sold and service customers by ZIP code to set the targeting footprint.',
      'Confirm co-op eligibility and disclaimer rules for the first flight with the manufacturer program.',
    ],
    channelWhy: {
      ctv: 'In-market auto intenders in your ZIP codes on the big screen, where shoppers form their short list.',
      olv: 'Pre-roll retargets shoppers who looked at your inventory and carries walk-around and review videos.',
      display: 'Inventory and specials retargeting keeps {name} in front of active shoppers between visits.',
      sem: 'Model, trim and "dealer near me" searches are the last step before a visit.',
    },
  },

  legal: {
    noun: 'law firm',
    customers: 'people who suddenly need a lawyer',
    job: 'a free consultation',
    decisionMaker: 'the managing or founding partner (often with an office manager or marketing director)',
    offer: 'a free consultation and the practice areas that bring the best cases',
    timingNote: 'attorneys are in court most mornings, so late afternoon often works better',
    openingAngle:
      'making yours the firm people in {area} already know when the accident, arrest or dispute happens',
    valueProposition:
      'When someone in {area} needs a lawyer, {name} is the name they already know from the screen in their living room, and the firm they find first when they search, so more signed cases come from your market instead of from the firms with the biggest billboards.',
    talkingPoints: [
      'Nobody plans to need a lawyer; when it happens they call the name they remember. Streaming TV builds that memory before the need arrives.',
      'Legal search clicks are among the most expensive in advertising; TV and online video raise searches for your name, which cost far less than generic legal terms.',
      'We can target by household and ZIP code, so {name} reaches the neighbourhoods it serves without paying for a whole metro market.',
      'Video lets prospective clients meet the attorney before they call: trust is the deciding factor in choosing a firm.',
      'Intake matters as much as media: we track calls so you see which channels produce signed cases, not just leads.',
    ],
    objections: [
      {
        objection: 'TV advertising looks cheap for a law firm.',
        response:
          'It depends on the creative. A calm, attorney-on-camera spot that explains how you help reads as credible, not loud. We can show you local examples that fit the way {name} wants to be seen.',
      },
      {
        objection: 'Bar rules make legal advertising complicated.',
        response:
          'They do, which is why every script goes through you before anything airs. We build in the required disclaimers and avoid guarantees of results; plenty of firms in the state advertise within those rules.',
      },
      {
        objection: 'Our cases come from referrals.',
        response:
          'Referrals are great cases. Advertising puts your name in front of the people who have nobody to ask, and makes the referral stick because the person has already seen you.',
      },
      {
        objection: 'We already pay for legal directories and lead services.',
        response:
          "Shared leads go to several firms at once. Campaigns in {name}'s own name produce calls that come only to you, and they keep working after a directory contract ends.",
      },
    ],
    angles: [
      'The biggest advertisers in legal own billboards and broadcast; household-targeted streaming lets {name} match their presence in its own ZIP codes for a fraction of that.',
      'Most firm ads sound alike; a real attorney explaining one real client problem stands out and builds trust.',
      'Competitors bidding on the same expensive search terms can be out-flanked by driving branded searches, which cost far less per case.',
      'Practice-area focus wins: one clear message (injury, family, criminal defence, estate planning) outperforms a list of everything the firm does.',
    ],
    insights: [
      'Legal decisions are made in a crisis window of days; frequency and recall matter more than reach at a single moment.',
      'Personal injury and criminal defence are the most advertised practice areas; family law and estate planning are less crowded and often cheaper to win.',
      'State bar advertising rules typically require disclaimers and forbid promising outcomes; every script needs attorney review.',
      'Intake speed decides conversion: a call answered live in minutes signs far more cases than a voicemail returned tomorrow.',
      'Measure cost per signed case, not cost per lead: tie call tracking to the case management system.',
      'Spanish-language and bilingual creative often reaches underserved clients with less competition.',
    ],
    questions: [
      'Which practice areas bring the cases you want more of, and what is an average case worth to the firm?',
      'How many new matters do you sign a month, and how many would you like to?',
      'Who answers intake calls after hours and on weekends?',
      'What do you spend on directories, lead services and search today, and what does a signed case cost you?',
      'Which firms do you see advertising most in {area}?',
    ],
    hooks: [
      'When {area} needs a lawyer, they call the name they already know. Make it {name}.',
      'Meet your next client before the accident happens.',
      'Billboard presence without the billboard budget: streaming TV for {name}.',
    ],
    plan: [
      'Choose the one or two practice areas the first campaign will carry, and agree the value of a signed case.',
      'Route every ad to a tracked intake number and confirm after-hours answering before launch.',
    ],
    channelWhy: {
      ctv: 'Builds the name recall that decides which firm gets the call when a legal need suddenly arises.',
      olv: 'Attorney-on-camera video builds trust and retargets people who visited the site but did not call.',
      display: 'Keeps {name} visible during the days someone weighs their options after an incident.',
      sem: 'Captures urgent "lawyer near me" and practice-area searches; branded searches convert at a lower cost.',
    },
  },

  home_services: {
    noun: {
      hvac: 'heating and air company',
      plumbing: 'plumbing company',
      roofing: 'roofing company',
    },
    customers: 'homeowners',
    job: 'a booked service call or estimate',
    decisionMaker: 'the owner (in larger shops, the general manager or marketing manager)',
    offer: 'the seasonal service or maintenance plan the shop most wants to sell, plus the emergency line',
    timingNote: 'owners are often on job sites mid-day; early morning before dispatch works well',
    openingAngle:
      'making you the company homeowners in {area} think of first when something breaks, instead of whoever tops the search results that day',
    valueProposition:
      'When a homeowner in {area} has a problem, {name} is the company they already know and trust from their TV and the one they find first when they search, so you book more of the jobs you want and rely less on shared leads.',
    talkingPoints: [
      "Homeowners don't shop for a {noun} until they need one, and then they call the name they know. Streaming TV makes that name {name}.",
      'We target by household and ZIP code, so {name} reaches homeowners in its service area, not renters or viewers an hour away.',
      'Weather and seasons drive demand; we can flight campaigns around heat waves, cold snaps and storm season so budget runs when the phones ring.',
      'Search ads catch emergency "near me" searches; TV exposure raises searches for your company name, which cost far less than generic terms.',
      'Maintenance plans and memberships smooth out slow months; video is the best way to explain why they are worth it.',
    ],
    objections: [
      {
        objection: "We're busy enough right now.",
        response:
          "That's the best time to build demand for your slow season and to choose the jobs you want, like replacements and installs, over whatever happens to call. Campaigns can pause in peak weeks.",
      },
      {
        objection: 'We get our leads from lead-generation services.',
        response:
          "Those leads are shared with three or four competitors. Advertising in {name}'s own name brings calls that only you receive, and the brand keeps paying off after the campaign ends.",
      },
      {
        objection: 'TV is for the big franchises.',
        response:
          'Streaming TV is bought by household and ZIP code now. {name} can be on the same screen as the national brands, only in the neighbourhoods you serve, at a budget sized for a local shop.',
      },
      {
        objection: 'We tried pay-per-click and it was too expensive.',
        response:
          'Generic home-service clicks are costly. TV drives people to search for your name instead, which costs far less per booked job. We run the two together and track every call.',
      },
    ],
    angles: [
      'National franchises and lead services flood search; a recognisable local face on streaming TV is something they cannot copy.',
      'Trucks, uniforms and a local owner on camera signal "we live here too", a trust edge over out-of-town call centres.',
      'Most competitors go dark in the off-season; staying visible then buys attention cheaply and fills the schedule early.',
      'Reviews and licences are strong creative: few competitors show their rating on TV.',
    ],
    insights: [
      'Demand is seasonal and weather-driven; plan flights ahead of peak seasons and keep a lighter always-on presence.',
      'Emergency jobs go to whoever answers first; call tracking with live answering matters as much as media.',
      'Replacement and installation jobs carry the margin; awareness creative should point there, not to the cheapest service call.',
      'Homeowners research larger jobs for weeks; online video with financing offers works in that window.',
      'Service-area ZIP codes with older homes and higher home values usually bring the best jobs.',
      'Count success as booked jobs and revenue per job, from tracked calls and form fills.',
    ],
    questions: [
      'What kind of job do you want more of: emergency calls, replacements, installs or maintenance plans?',
      'Which ZIP codes or neighbourhoods bring your best jobs?',
      'What are your busiest and slowest months, and how many trucks or crews could you keep busier?',
      'What do you spend on lead services and search today, and what does a booked job cost you?',
      'Who answers the phone after hours and on weekends?',
    ],
    hooks: [
      'When something breaks in {area}, the first name homeowners think of should be {name}.',
      'Stop sharing leads with three competitors. Get calls that come only to {name}.',
      'Be the local {noun} on the big screen, only in the ZIP codes you serve.',
    ],
    plan: [
      'Map the service area and best-job ZIP codes from the last season of invoices.',
      'Set the seasonal flight calendar (peak weather windows) and the message for each.',
    ],
    channelWhy: {
      ctv: 'Homeowner households in your service ZIP codes remember {name} before the emergency happens.',
      olv: 'Short videos explain replacements, maintenance plans and financing while homeowners research bigger jobs.',
      display: 'Keeps {name} in sight during the weeks homeowners compare quotes.',
      sem: 'Captures urgent "near me" searches the moment something breaks.',
    },
  },

  health: {
    noun: {
      dental: 'dental practice',
      orthodontics: 'orthodontic practice',
      medical: 'medical practice',
    },
    customers: 'new patients',
    job: 'a new-patient appointment',
    decisionMaker: 'the practice owner (doctor) or the practice manager',
    offer: 'a new-patient special or the most profitable service the practice wants to grow',
    timingNote: 'practices are busiest first thing and at lunch; the 2-4 PM window is usually best',
    openingAngle: 'filling your schedule with the new patients and treatments you want most',
    valueProposition:
      'Families in {area} see {name} on streaming TV and online video, trust the practice before they visit, and find it first when they search, so you add the new patients and treatments you want rather than whatever the insurance directory sends.',
    talkingPoints: [
      'Patients choose a {noun} on trust; video lets them meet the doctor and see the office before they ever call.',
      'Household targeting reaches families within a short drive of {name}, the radius patients actually travel.',
      'Elective and high-value treatments respond to awareness: we can promote the services that bring the most revenue per patient.',
      'Search ads capture "near me" and treatment searches, and TV exposure raises searches for your practice by name.',
      'A steady flow of new patients keeps hygiene and appointment books full through slow months.',
    ],
    objections: [
      {
        objection: 'Our new patients come from insurance networks.',
        response:
          'Insurance directories list every practice side by side. Advertising helps patients pick {name} out of that list, and brings in patients for treatments insurance does not cover.',
      },
      {
        objection: "Advertising doesn't fit a professional practice.",
        response:
          'The creative can be calm and educational: the doctor explaining one common problem. It reads as care, not a sales pitch, and we can show you practices that do it well.',
      },
      {
        objection: 'We are fully booked.',
        response:
          "Then let's aim for the right patients rather than more patients: higher-value treatments, new-patient exams on your slower days, or a second provider's schedule.",
      },
      {
        objection: 'Our marketing company already does our website and social media.',
        response:
          'Good, we would send traffic to that work. Streaming TV and online video reach people who are not following you yet, so the website and social media get more visitors to convert.',
      },
    ],
    angles: [
      'Corporate and group practices outspend independents on search; streaming TV lets an independent practice show its own doctor and personality.',
      'Few practices use video, so the first in a neighbourhood to show up on streaming TV gets remembered.',
      'Reviews are decisive in healthcare choices; putting the star rating in the creative is proof competitors rarely show.',
      'Convenience (evening hours, same-week appointments, parking, languages spoken) is an angle competitors rarely advertise.',
    ],
    insights: [
      'Patients usually choose a provider within a short drive of home or work; keep targeting tight around the practice.',
      'New-patient lifetime value is high (years of recall visits and referrals), so acquisition cost should be judged over years.',
      'Elective treatments (implants, aligners, cosmetic work) carry the margin and are the most responsive to advertising.',
      'Health advertising must avoid claims that cannot be substantiated; keep patient testimonials compliant with privacy rules.',
      'January (new benefits) and the end of the year (use-it-or-lose-it benefits) are strong flight windows.',
      'Front-desk call handling decides conversion; recorded, tracked calls show where bookings are lost.',
    ],
    questions: [
      'How many new patients a month do you see now, and how many could you take?',
      'Which treatments would you most like to grow?',
      'Which insurance plans do you take, and how much of the work is fee-for-service?',
      'Which days or providers have open time in the schedule?',
      'What does a new patient typically bring in over the first year?',
    ],
    hooks: [
      'Let families in {area} meet the doctor before they book.',
      'The {noun} your neighbours see on TV is the one they call first.',
      'Fill the schedule with the treatments you want, not just what insurance sends.',
    ],
    plan: [
      'List the treatments to grow and the schedule openings the campaign should fill.',
      'Record a 30-second doctor introduction (and a 15-second cut) in the office.',
    ],
    channelWhy: {
      ctv: 'Families within a short drive of {name} meet the practice on the big screen and remember it.',
      olv: 'Doctor-introduction and treatment videos build the trust patients need before booking.',
      display: 'Retargets site visitors who looked at treatments but have not booked yet.',
      sem: 'Treatment and "near me" searches show intent to book now.',
    },
  },

  furniture: {
    noun: 'furniture store',
    customers: 'furniture shoppers',
    job: 'a showroom visit',
    decisionMaker: 'the owner or store manager (the advertising decision often sits with the owner)',
    offer: 'the next holiday sales event and the showroom itself',
    timingNote: 'weekends are selling time; weekday mornings before the floor gets busy are best',
    openingAngle: 'bringing more shoppers through your doors for the next sales event',
    valueProposition:
      '{name} is on the big screen in homes across {area} ahead of every sales event, and retargets the shoppers who browse online, so more of them walk into the showroom ready to buy.',
    talkingPoints: [
      'Furniture is a big, considered purchase made by households; TV shows the product in a living room, exactly where the decision happens.',
      'Holiday sales events drive the year; streaming TV flights timed to each event bring traffic when it counts.',
      'We can target homeowners, recent movers and new-construction neighbourhoods in your trade area.',
      'Online video and display retarget shoppers who browsed your catalogue online and bring them into the showroom.',
      'National retailers and online sellers compete on price; {name} can compete on seeing, touching and delivering locally.',
    ],
    objections: [
      {
        objection: 'Online retailers have taken our customers.',
        response:
          'Shoppers still want to sit on a sofa before spending thousands. Show them the showroom on TV and the local delivery and service, and they will come in to try it.',
      },
      {
        objection: 'We only advertise around sales.',
        response:
          'Sales events are when TV works hardest, and we will weight the budget there. A light presence in between keeps {name} the store people think of when they start shopping.',
      },
      {
        objection: 'We use the newspaper insert and direct mail.',
        response:
          'Those reach fewer households every year. Streaming TV reaches the same ZIP codes on the biggest screen in the house, and we can measure visits.',
      },
    ],
    angles: [
      'Big-box and online retailers advertise price; {name} can advertise the experience: try it, take it home, local delivery and service.',
      'Local ownership and years in business are credibility that national chains cannot claim.',
      'Recent movers are the most valuable audience in furniture, and few local stores target them.',
      'Mattresses and financing offers are proven traffic drivers to lead with.',
    ],
    insights: [
      'Holiday weekends (Presidents Day, Memorial Day, July 4th, Labor Day, Black Friday) are the core sales events.',
      'Shoppers research online first and visit only a few stores; be visible before the short list is made.',
      'Recent movers and new homeowners spend far more on furniture in their first year in a home.',
      'Financing offers increase average ticket; say them clearly in the creative.',
      'Measure store visits and sales by ZIP code against the households reached.',
      'Creative showing real rooms and real staff outperforms generic stock footage.',
    ],
    questions: [
      'Which sales events drive your year, and which one is next?',
      'What is your average ticket, and which categories carry the margin?',
      'Where do your customers come from: which ZIP codes, and how far do they drive?',
      'Do you offer financing and delivery, and are they in your advertising?',
      'What share of your customers browse your website before visiting?',
    ],
    hooks: [
      'Sit on it before you buy it: {name} in {area}.',
      'Put the showroom on the biggest screen in the house before the next sale.',
      'New home? {name} is ready when the moving boxes are gone.',
    ],
    plan: [
      'Pick the next sales event and the three products or offers the creative will show.',
      'Shoot showroom footage (real rooms, real staff) for 15- and 30-second spots.',
    ],
    channelWhy: {
      ctv: 'Shows the showroom on the screen in the living room, where the furniture decision is made.',
      olv: 'Room tours and product videos reach shoppers researching online.',
      display: 'Retargets catalogue browsers and promotes each sales event.',
      sem: 'Captures "furniture store near me" and category searches before the weekend.',
    },
  },

  insurance: {
    noun: 'insurance agency',
    customers: 'households and small businesses shopping for coverage',
    job: 'a quote',
    decisionMaker: 'the agency owner or principal agent',
    offer: 'a free coverage review or quote comparison',
    timingNote: 'mid-morning, after renewals and service calls are handled',
    openingAngle: 'winning you more quotes from local households without buying shared leads',
    valueProposition:
      '{name} becomes the local agent households in {area} know and trust from streaming TV and video, so when a renewal jumps or a life event happens they call you for a quote instead of a national call centre.',
    talkingPoints: [
      'National carriers spend heavily to make insurance feel like a commodity; a local agent on streaming TV gives people a face and a reason to call.',
      'Life events (a move, a new car, a new home, a new baby) trigger shopping; targeting can reach households in those moments.',
      'Rate increases push people to compare; being top of mind when renewal notices land brings quote requests.',
      'Search ads capture "insurance agent near me" at the moment of shopping; TV raises searches for your name.',
      'One new household often means several policies (auto, home, life) and years of renewals.',
    ],
    objections: [
      {
        objection: 'The carrier does our advertising.',
        response:
          "Carrier ads sell the carrier, and every agent in town benefits equally. Local advertising sells {name}: your office, your team, your service. Many carriers also offer co-op funds; let's check yours.",
      },
      {
        objection: 'We buy internet leads.',
        response:
          'Internet leads are sold to several agents at once. Advertising in your own name brings quote requests that only you receive, at a cost that drops as people get to know you.',
      },
      {
        objection: 'Insurance is a referral business.',
        response:
          'Referrals close best. Advertising helps referred people recognise {name} when they hear it, and reaches the many households who have no one to ask.',
      },
    ],
    angles: [
      'National carriers advertise price and mascots; a local agent can advertise advice, claims help and a person who answers the phone.',
      'Bundling (home, auto, life, business) is a message few local agencies advertise clearly.',
      'Spanish-language and bilingual service is an underused angle in many markets.',
      'Small-business coverage is a profitable niche that local agents can own on streaming TV.',
    ],
    insights: [
      'Rate increases at renewal drive shopping; flights timed to rate news catch switchers.',
      'Households with recent life events (moves, new cars, new homes) are the most likely to shop.',
      'Policy retention is high once a household bundles; lifetime value is several years of premiums.',
      'Carrier co-op programs may reimburse part of local advertising with brand guidelines attached.',
      'Quote-to-bind rate and cost per bound household are the numbers agency owners care about.',
      'Local trust signals (years in the community, sponsorships, reviews) belong in the creative.',
    ],
    questions: [
      'Which lines do you want to grow: personal auto, home, life or commercial?',
      'How many quotes do you write a month, and what share bind?',
      'Does your carrier offer co-op advertising funds?',
      'What do leads cost you today, and what does a bound household bring in over time?',
      'Which neighbourhoods or communities do you serve best?',
    ],
    hooks: [
      'Renewal went up? {area} has a local agent who picks up the phone: {name}.',
      'Put a face on insurance: yours.',
      'Quotes that come only to {name}, not to four agents at once.',
    ],
    plan: [
      'Choose the line of business and the quote offer the first flight promotes.',
      'Check carrier co-op and compliance rules for the creative.',
    ],
    channelWhy: {
      ctv: 'Gives households in {area} a trusted local face to call when renewals rise or life changes.',
      olv: 'Short explainer videos answer coverage questions and bring quote requests.',
      display: 'Reaches households at life-event moments and retargets quote-page visitors.',
      sem: 'Captures "insurance agent near me" and line-specific quote searches.',
    },
  },

  fitness: {
    noun: 'fitness business',
    customers: 'people ready to get in shape',
    job: 'a trial visit or membership sign-up',
    decisionMaker: 'the owner or general manager',
    offer: 'a trial pass or joining offer timed to the New Year and back-to-school seasons',
    timingNote: 'mid-morning or early afternoon, between the before-work and after-work rushes',
    openingAngle: 'growing your membership ahead of the big January and spring sign-up seasons',
    valueProposition:
      '{name} is on the screens of health-minded households near the gym before each sign-up season, with a trial offer that brings them through the door, and we measure the sign-ups it drives.',
    talkingPoints: [
      'People join a gym close to home or work; household targeting reaches exactly that radius around {name}.',
      'January and late spring are the big sign-up seasons; streaming TV flights ahead of them fill the trial pipeline.',
      'Video shows the community, the coaches and the classes, which is what members actually buy.',
      'Online video and display retarget people who visited the website but did not sign up.',
      'Membership revenue recurs monthly, so one new member pays back the campaign many times over a year.',
    ],
    objections: [
      {
        objection: 'We grow through social media.',
        response:
          'Social reaches your followers. Streaming TV and online video reach the households nearby who do not follow you yet, and send them to the social pages and trial offer you already have.',
      },
      {
        objection: 'The big chains have much bigger budgets.',
        response:
          'They buy whole markets; we buy only the ZIP codes around {name}. On the screen in those homes, you look just as big.',
      },
      {
        objection: 'Members come and go; advertising does not fix churn.',
        response:
          'Agreed, retention is your part. Our part is a steady flow of the right new members, aimed at people who fit your classes and coaching, who tend to stay longer.',
      },
    ],
    angles: [
      'Budget chains sell price; {name} can sell coaching, community and results.',
      'Real member transformations and instructors on camera are more persuasive than any stock footage.',
      'Specialty classes (strength, HIIT, yoga, boxing, seniors) are niches the big chains underserve.',
      'Corporate wellness and family plans are angles few local gyms advertise.',
    ],
    insights: [
      'January, post-spring-break and back-to-school are peak sign-up periods.',
      'Members rarely travel far; a tight radius around the location keeps spend efficient.',
      'Trial passes and challenges convert better than discounts alone.',
      'Monthly recurring revenue makes member lifetime value the right measure, not cost per click.',
      'Measure trial sign-ups, show rate and conversion to membership.',
      'Community and belonging are what members cite most for staying; show them in creative.',
    ],
    questions: [
      'How many members do you have, and how many new ones a month do you need?',
      'What does an average member pay, and how long do they stay?',
      'Which classes or programs have room to grow?',
      'How do trial visitors convert to members today?',
      'When are your slowest months for sign-ups?',
    ],
    hooks: [
      'Your neighbours are making resolutions. Make {name} the place they keep them.',
      'Real coaches, real members, on the biggest screen in {area}.',
      'Fill the next challenge before it starts.',
    ],
    plan: [
      'Pick the trial offer or challenge and the sign-up season the first flight supports.',
      'Film a class and two member stories for 15- and 30-second spots.',
    ],
    channelWhy: {
      ctv: 'Reaches health-minded households near the gym before each sign-up season.',
      olv: 'Class and coaching videos show the experience people are buying.',
      display: 'Retargets trial-page visitors and promotes challenges.',
      sem: 'Captures "gym near me" and class-type searches.',
    },
  },

  restaurant: {
    noun: 'restaurant',
    customers: 'diners',
    job: 'a reservation or visit',
    decisionMaker: 'the owner or general manager',
    offer: 'a signature dish, private dining or catering, and the slow nights to fill',
    timingNote: 'never during lunch or dinner service; 2-4 PM between services is best',
    openingAngle: 'filling your slower nights and growing private dining and catering',
    valueProposition:
      "Diners in {area} see {name}'s food on the biggest screen in the house and find it first when they search where to eat, so slow nights, private events and catering fill up.",
    talkingPoints: [
      'People decide where to eat with their eyes; video of your food and room sells a visit better than any listing.',
      'We can target households within a short drive of {name}, plus office workers nearby for lunch and catering.',
      'Slow nights, private dining and catering are where added covers pay best; campaigns can promote exactly those.',
      'Search ads and maps visibility catch "restaurants near me" searches made hours before a meal.',
    ],
    objections: [
      {
        objection: 'We are a neighbourhood spot; people find us.',
        response:
          'The regulars already know you. Advertising reaches the people who live nearby but have not tried you yet, and gives them a reason to come on a Tuesday.',
      },
      {
        objection: 'Margins are too thin for advertising.',
        response:
          'That is why we aim only at the business with the best margins: private events, catering and your slowest nights. We will start small and measure reservations and event inquiries.',
      },
      {
        objection: 'Delivery apps are our marketing.',
        response:
          'Delivery apps take a large commission on every order. Bringing diners to your dining room, or to order direct, keeps that margin with {name}.',
      },
    ],
    angles: [
      'Chain restaurants advertise price and deals; {name} can advertise the food, the chef and the room.',
      'Private dining and catering are high-value niches most independents never advertise.',
      'Local sourcing, family history and the chef on camera are stories chains cannot tell.',
      'Direct ordering and reservations avoid third-party app fees, a message worth pushing.',
    ],
    insights: [
      'Restaurant choice is made within hours; maps and search visibility matter most near mealtimes.',
      'Weeknight covers, private events and catering are where extra volume pays best.',
      "Holidays (Valentine's Day, Mother's Day, graduation, the December party season) drive reservations weeks ahead.",
      'Reviews and photos drive choice; strong ratings belong in the creative.',
      'Measure reservations, event inquiries and direct orders rather than impressions.',
      'Keep targeting tight: most diners travel only a short distance for a regular meal.',
    ],
    questions: [
      'Which nights or dayparts would you most like to fill?',
      'Do you offer private dining or catering, and how much of it do you book now?',
      'What is your average check per guest?',
      'How do guests book today: phone, reservation app, walk-in?',
      'Which holidays or events are biggest for you?',
    ],
    hooks: [
      "Tonight's dinner decision starts on the screen. Make it {name}.",
      'Your best dish, on the biggest screen in {area}.',
      'Fill Tuesdays, not just Saturdays.',
    ],
    plan: [
      'Choose the nights, events or catering packages the campaign will promote.',
      'Film the kitchen, the signature dishes and the dining room at service.',
    ],
    channelWhy: {
      ctv: 'Food on the big screen gives nearby households a reason to try {name}.',
      olv: 'Short food and chef videos work in social and pre-roll placements.',
      display: 'Promotes events, catering and holiday reservations to nearby households and offices.',
      sem: 'Captures "restaurants near me" searches made shortly before a meal.',
    },
  },

  bar: {
    noun: 'bar',
    customers: 'adults looking for a night out',
    job: 'a visit or event booking',
    decisionMaker: 'the owner or general manager',
    offer: 'events, live music, game nights and private parties',
    timingNote: 'early afternoon before opening; avoid evenings and weekends',
    openingAngle: 'filling your event nights and private parties',
    valueProposition:
      '{name} reaches adults nearby with its events and atmosphere online and on streaming screens, so event nights, private parties and slower weeknights fill up.',
    talkingPoints: [
      'Events, trivia, live music and game days are reasons to visit; targeted online video and display promote each one to adults nearby.',
      'Private parties and group bookings are high-value business worth advertising on their own.',
      'Streaming TV around local sports broadcasts puts {name} in front of fans deciding where to watch the game.',
      'Search and maps visibility catch "bars near me" searches the same night.',
    ],
    objections: [
      {
        objection: 'Our crowd finds us on social media.',
        response:
          'Social reaches people who already follow you. Targeted video and display reach adults nearby who do not follow you yet, and point them to the same events.',
      },
      {
        objection: 'TV is too expensive for a bar.',
        response:
          'We would start with online video and display around your events and add streaming TV only around big game days, where it pays off.',
      },
      {
        objection: 'Alcohol advertising has too many rules.',
        response:
          'We follow the platform and state rules: adult audiences only and responsible messaging. Most of your creative will be about events and atmosphere anyway.',
      },
    ],
    angles: [
      'Game-day streaming around local teams is a moment competitors rarely buy.',
      'Private parties and group events are a profitable niche to own.',
      'Craft, local and house-made products are stories chains cannot tell.',
      'A strong calendar of events gives fresh creative every week.',
    ],
    insights: [
      'Decisions are made the same day; mobile, search and maps visibility matter most.',
      'Big sports events, holidays and summer patio season drive traffic peaks.',
      'Alcohol advertising must target adults of legal drinking age and follow state rules.',
      'Event-specific creative outperforms generic "come visit" messages.',
      'Measure event attendance, private-party inquiries and promo code use.',
      'Bars are weaker TV candidates than most categories; lead with digital and add streaming around events.',
    ],
    questions: [
      'Which nights need more people, and what events do you run?',
      'Do you host private parties, and how are they booked?',
      'Which games or seasons are busiest?',
      'How far do your regulars travel?',
      'What do you spend on promotion today, and where?',
    ],
    hooks: [
      'Where is {area} watching the game? {name}.',
      'Your next event, in front of every adult nearby.',
      'Private parties booked from the couch.',
    ],
    plan: [
      'Pull the next six weeks of events and pick two to promote first.',
      'Set adult-only targeting and responsible-messaging checks in every platform.',
    ],
    channelWhy: {
      ctv: 'Limited to game days and big events, when adults nearby decide where to go.',
      olv: 'Event and atmosphere videos reach adults nearby on mobile.',
      display: 'Promotes each event to adults within a short drive.',
      sem: 'Captures same-night "bars near me" searches.',
    },
  },

  hotel: {
    noun: 'hotel',
    customers: 'travellers and event planners',
    job: 'a direct booking or group inquiry',
    decisionMaker: 'the general manager or director of sales',
    offer: 'direct-booking rates, weddings, meetings and group blocks',
    timingNote: 'mid-morning on weekdays, after check-outs are handled',
    openingAngle: 'growing your direct bookings and group business',
    valueProposition:
      '{name} reaches travellers and local event planners with online video, display and search, so more bookings come direct rather than through commission-charging sites, and more weddings and meetings land on the calendar.',
    talkingPoints: [
      'Every booking through an online travel agency costs a commission; direct-booking campaigns keep that margin.',
      'Weddings, meetings and group blocks are planned locally; local advertising reaches the planners.',
      'Search ads on the hotel name protect bookings from being intercepted by resellers.',
      'Display and video can target travellers researching trips to {area}.',
    ],
    objections: [
      {
        objection: 'Our brand handles marketing.',
        response:
          "The brand sells the brand nationally. Local advertising sells {name}'s weddings, meetings and local events, business the brand programme does not chase for you.",
      },
      {
        objection: 'Travel sites bring our bookings.',
        response:
          'They do, at a commission on every stay. Direct-booking search and retargeting move some of those guests to your own site at a fraction of the cost.',
      },
      {
        objection: 'Local TV does not reach travellers.',
        response:
          'Agreed for leisure travel, so we would lead with search and display. Local streaming makes sense for weddings, events and your restaurant, which locals do book.',
      },
    ],
    angles: [
      'Owning search on the hotel name stops resellers taking direct bookings.',
      'Local weddings and events are a market most hotels under-advertise.',
      'The hotel restaurant and bar can be promoted to locals, not just guests.',
      'Packages built around local events give timely creative.',
    ],
    insights: [
      'Commissions on travel-site bookings make direct bookings worth significant acquisition cost.',
      'Group and event sales are decided by local planners months ahead.',
      'Hotels are low-propensity TV buyers; lead with search and display and keep streaming for local events.',
      'Measure direct bookings, group inquiries and revenue per available room.',
      'Seasonality and local events drive demand peaks; plan flights ahead of them.',
      'Brand standards may govern creative; check what the franchise allows.',
    ],
    questions: [
      'What share of bookings comes direct versus through travel sites?',
      'How much of your revenue is groups, weddings and meetings?',
      'Which dates or seasons need filling?',
      'What does the brand allow in local advertising?',
      'Do you have a restaurant, bar or event space locals could book?',
    ],
    hooks: [
      'Book direct with {name}, and keep the commission in {area}.',
      'Your next wedding block is being planned nearby right now.',
      'Own the search for your own hotel name.',
    ],
    plan: [
      'Audit branded search to see who bids on the hotel name today.',
      'List the group, wedding and event packages to promote locally.',
    ],
    channelWhy: {
      ctv: 'Reserved for local weddings, events and dining, where nearby households are the buyers.',
      olv: 'Property and event-space videos reach planners and travellers researching {area}.',
      display: 'Retargets travellers who looked at rooms and promotes packages.',
      sem: 'Protects searches for the hotel name and captures "hotels in {area}" searches.',
    },
  },

  qsr: {
    noun: 'quick-service restaurant',
    customers: 'nearby customers',
    job: 'a visit or order',
    decisionMaker: 'the owner or franchisee (for franchises, check the brand advertising fund first)',
    offer: 'a limited-time offer, catering or the app and online ordering',
    timingNote: 'mid-afternoon between the lunch and dinner rushes',
    openingAngle: 'bringing more nearby customers in and growing catering and online orders',
    valueProposition:
      '{name} reaches people within minutes of the store on their phones and screens with offers that bring them in, focused on catering and direct orders where the margin is.',
    talkingPoints: [
      'Quick-service decisions are made within minutes and a short drive; mobile display and search near the store catch them.',
      'Catering for offices and events is a high-value order worth its own campaign.',
      'Direct ordering avoids delivery-app commissions; promoting your own ordering keeps margin.',
      'Display and online video can promote limited-time offers to people near the store.',
    ],
    objections: [
      {
        objection: 'Corporate or the franchise fund does our advertising.',
        response:
          'The ad fund sells the brand across the region. Local campaigns sell this location: catering to nearby offices, and offers for your own trade area.',
      },
      {
        objection: "We're too small for TV.",
        response:
          'Agreed, TV is not where we would start. Targeted mobile display and search around the store cost little and are easy to measure with an offer code.',
      },
      {
        objection: 'Delivery apps bring us orders.',
        response:
          'At a commission on every order. Promoting your own ordering and catering brings the same customers without the fee.',
      },
    ],
    angles: [
      'Catering for local offices, schools and teams is business chains often leave to corporate.',
      'Mobile targeting around the store reaches people at the moment they decide.',
      'Local ownership and community sponsorship are stories national chains cannot tell.',
      'Direct ordering with a loyalty offer builds repeat visits.',
    ],
    insights: [
      'Quick-service restaurants are the lowest TV propensity in the table; lead with mobile display and search.',
      'Customers decide within minutes and travel only a short distance.',
      'Catering orders are larger and more predictable than walk-in sales.',
      'Offer codes make campaigns easy to measure.',
      'Franchise locations must check brand creative rules and ad-fund coverage.',
      'Lunch and late-night dayparts can be targeted separately.',
    ],
    questions: [
      'Is the location independent or part of a franchise, and what does the ad fund cover?',
      'How much business is catering, and who orders it?',
      'Which dayparts are slow?',
      'What share of orders come through delivery apps?',
      'Do you run limited-time offers, and how do you promote them today?',
    ],
    hooks: [
      'Lunch for the whole office, from {name}.',
      'Order direct from {name} and skip the app fees.',
      'Right around the corner, on every phone nearby.',
    ],
    plan: [
      'Check franchise creative rules and ad-fund coverage before building creative.',
      'Build a catering list of offices and schools within a short drive.',
    ],
    channelWhy: {
      ctv: 'Kept small: a streaming presence only around local events and sports.',
      olv: 'Short food videos on mobile near the store.',
      display: 'Mobile offers to people within a short drive, measured with an offer code.',
      sem: 'Captures "food near me" and catering searches.',
    },
  },

  real_estate: {
    noun: 'real estate business',
    customers: 'buyers and sellers',
    job: 'a listing appointment or buyer consultation',
    decisionMaker: 'the broker-owner or team lead',
    offer: "a free home valuation and the team's local market knowledge",
    timingNote: 'weekday mornings; agents show homes in the afternoons and weekends',
    openingAngle: 'winning you more listing appointments in {area}',
    valueProposition:
      'Homeowners in {area} see {name} as the local market expert on streaming TV and online video long before they decide to sell, so the listing call goes to you rather than the agent with the biggest sign count.',
    talkingPoints: [
      'Sellers choose an agent they already recognise; streaming TV builds that recognition in the exact neighbourhoods you farm.',
      'Household targeting reaches homeowners (not renters) by ZIP code and home value.',
      'A free home-valuation offer on video and display turns awareness into listing leads.',
      'Search ads on "homes for sale in {area}" and "sell my house" capture active buyers and sellers.',
    ],
    objections: [
      {
        objection: 'Real estate is all referrals and sphere.',
        response:
          'Your sphere is the base. Advertising grows the sphere: homeowners who have seen you for months treat your first call like a referral.',
      },
      {
        objection: 'Portal leads are cheaper.',
        response:
          'Portal leads are buyers shared with other agents. Listings come from homeowners who know your name, and listings are what build a business.',
      },
      {
        objection: 'The market is slow right now.',
        response:
          'In a slow market, sellers pick the agent they trust most. Staying visible while others pull back is the cheapest time to win share.',
      },
    ],
    angles: [
      'Most agents advertise listings; few advertise themselves as the neighbourhood expert on video.',
      'Geographic farming on streaming TV reaches every homeowner in the farm area.',
      'Market-update videos give a reason to advertise every month.',
      'Brokerage brand plus a local face beats either alone.',
    ],
    insights: [
      'Listings drive real estate businesses; seller leads are worth far more than buyer leads.',
      'Homeowners decide to sell months before they call; awareness must run continuously.',
      'Spring is the peak listing season; build presence in the winter before it.',
      'Fair-housing rules limit targeting by protected characteristics; target by geography and homeownership.',
      'Measure valuation requests, listing appointments and signed listings.',
      'Market-update content keeps creative fresh and positions the agent as an expert.',
    ],
    questions: [
      'How many listings do you take a year, and what is a listing worth to you?',
      'Which neighbourhoods do you farm or want to own?',
      'Where do your listings come from today?',
      'Do you have video content or market updates already?',
      'What does your brokerage provide in marketing?',
    ],
    hooks: [
      'The agent {area} homeowners already know: {name}.',
      'What is your home worth? Ask the neighbourhood expert.',
      'Be the name homeowners remember before they decide to sell.',
    ],
    plan: [
      'Define the farm area by ZIP code and the valuation offer.',
      'Record a monthly market-update video format.',
    ],
    channelWhy: {
      ctv: 'Builds agent recognition with homeowners in the farm area before they decide to sell.',
      olv: 'Market-update videos position {name} as the local expert.',
      display: 'Home-valuation offers to homeowners in the farm area.',
      sem: 'Captures "sell my house" and "homes for sale in {area}" searches.',
    },
  },

  other: {
    noun: 'business',
    customers: 'local customers',
    job: 'a call or visit',
    decisionMaker: 'the owner or manager',
    offer: 'what makes the business different and an easy first step for new customers',
    timingNote: 'mid-morning or mid-afternoon, away from the busiest hours',
    openingAngle: 'bringing you more local customers with targeted advertising',
    valueProposition:
      'Targeted streaming TV, online video, display and search put {name} in front of the people in {area} most likely to become customers, with a budget sized to the business and results we measure together.',
    talkingPoints: [
      'Household and ZIP-code targeting means {name} pays only to reach the neighbourhoods it serves.',
      'Streaming TV and online video give a local business the same big screen as national brands.',
      'Search ads capture people looking for what you offer right now.',
      'Every campaign is measured: calls, website visits and customers, so you can see what works.',
    ],
    objections: [
      {
        objection: 'Advertising has never worked for us.',
        response:
          'What did you try, and how was it measured? Targeted campaigns with call and visit tracking are very different from a newspaper ad; we will agree on what success looks like before anything runs.',
      },
      {
        objection: "We're too small for TV.",
        response:
          'Streaming TV is sold by household and ZIP code, so small budgets buy real presence in the neighbourhoods you serve. We can also start with digital only.',
      },
    ],
    angles: [
      'Most local competitors rely on word of mouth alone; a consistent local presence sets {name} apart.',
      'A real owner and real staff on camera build trust national chains cannot match.',
      'Specialities and service quality are messages competitors rarely advertise.',
      'Local reviews and years in business are credibility worth showing.',
    ],
    insights: [
      'This category has moderate propensity for TV; lead with search and display and add streaming around peak seasons.',
      'Know the value of a new customer before setting the budget.',
      'Keep targeting to the trade area the business actually serves.',
      'Measure with call tracking and website analytics from day one.',
      'Seasonal peaks are the best time to start a first campaign.',
      'Simple offers and a clear next step convert better than broad image messages.',
    ],
    questions: [
      'What makes {name} different from the competitors nearby?',
      'How far do your customers come from?',
      'What is your busiest season, and when do you need more customers?',
      'How do new customers find you today?',
    ],
    hooks: [
      'Your neighbours are looking for a {noun} like {name}. Be the one they find.',
      'Be the {noun} people in {area} think of first.',
      'The local choice in {area}: {name}.',
    ],
    plan: [
      'Define the trade area and the first offer.',
      'Set up call tracking and website analytics before launch.',
    ],
    channelWhy: {
      ctv: 'Builds awareness with households in the trade area.',
      olv: 'Short videos introduce {name} to nearby audiences.',
      display: 'Keeps {name} visible to people who have shown interest.',
      sem: 'Captures people searching for what {name} offers right now.',
    },
  },
};
